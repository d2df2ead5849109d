/**
 * The words of anything thrown or rejected, for a log line or a message shown: an Error's own message,
 * or what anything else reads as (`String`), so a thrown string or number is not lost as "[object …]"
 * or "undefined".
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
