/** When a file was made, for its name: the UTC time to the second, with `-` for `:` (not allowed in Windows file names). */
export function fileStamp(now: Date): string {
  return now.toISOString().replaceAll(':', '-').slice(0, 19);
}
