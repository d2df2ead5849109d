/**
 * The legacy functions the stack seeds (fixtures/*.js). New legacy functions cannot be created
 * (docs/interface.md §6.1.5): these stand in for functions written long ago in the old developer portal.
 */
import { readdir, readFile } from 'node:fs/promises';

export interface LegacyFixture {
  /** File name without `.js`, e.g. `match-by-room`. */
  readonly name: string;
  /** The function expression's text, as given to `LegacyRunner.run`. */
  readonly source: string;
}

const FIXTURES_DIR = new URL('./fixtures/', import.meta.url);

export async function loadLegacyFixtures(): Promise<LegacyFixture[]> {
  const files = (await readdir(FIXTURES_DIR)).filter((file) => file.endsWith('.js')).sort();
  return Promise.all(
    files.map(async (file) => ({
      name: file.slice(0, -'.js'.length),
      source: await readFile(new URL(file, FIXTURES_DIR), 'utf8'),
    })),
  );
}
