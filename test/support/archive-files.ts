/** Reads archive text the way Import does, in chunks of `chunkBytes`, counting the reader's pauses and what it had taken at each. */
import { type ArchiveReadResult, readArchive } from '../../common/archive-reader';

export interface PacedRead {
  result: ArchiveReadResult;
  pauses: number;
  /** Entries taken when each pause came. */
  entriesAtPauses: number[];
}

export async function readText(text: string | Uint8Array, chunkBytes = 64 * 1024): Promise<PacedRead> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const entriesAtPauses: number[] = [];
  let entries = 0;
  const result = await readArchive(
    async function* () {
      for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
    },
    {
      pause: async () => {
        entriesAtPauses.push(entries);
      },
      progress: (read) => {
        entries = read.entries;
      },
    },
  );
  return { result, pauses: entriesAtPauses.length, entriesAtPauses };
}
