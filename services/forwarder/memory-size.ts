/**
 * What a string held by the forwarder costs in memory, for its byte budgets. V8 keeps a string in one
 * byte per UTF-16 code unit when every unit is Latin-1 and two otherwise; the budgets count two, an
 * upper bound known without scanning the string (a scan of every 0.6 Mi-character frame would cost more
 * than the bookkeeping it serves). A frame of plain ASCII is thus counted at twice what it takes.
 */
export function stringBytes(text: string): number {
  return text.length * 2;
}
