/** What of a URL may be logged: its origin. Paths and queries can carry authorisation codes. */
export function logSafeOrigin(url: string | undefined): string {
  if (url === undefined) return 'none';
  try {
    return new URL(url).origin;
  } catch {
    return 'unparseable';
  }
}
