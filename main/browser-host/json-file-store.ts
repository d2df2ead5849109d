/**
 * The browser host's KeyValueStore: one JSON object in a file, written atomically (temporary file,
 * then rename) with mode 0600. A file that cannot be read as a JSON object is kept aside, not
 * overwritten, and the store starts empty — nothing is lost silently.
 */
import { readFileSync, renameSync } from 'node:fs';
import { writeFileAtomically } from '../../common/atomic-write';
import type { KeyValueStore, Logger } from '../core/shared';

export function createJsonFileStore(path: string, logger: Logger): KeyValueStore {
  const data = load(path, logger);
  const save = () => writeFileAtomically(path, JSON.stringify(data, null, 2));
  return {
    get: (key) => (Object.hasOwn(data, key) ? data[key] : undefined),
    set(key, value) {
      data[key] = value;
      save();
    },
    delete(key) {
      if (!Object.hasOwn(data, key)) return;
      delete data[key];
      save();
    },
  };
}

function load(path: string, logger: Logger): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Object.create(null) as Record<string, unknown>;
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.assign(Object.create(null) as Record<string, unknown>, parsed);
    }
  } catch {
    // fall through: kept aside below
  }
  const aside = `${path}.unreadable-${Date.now()}`;
  renameSync(path, aside);
  logger.warn('settings: the settings file was not valid JSON; kept it aside and started afresh', { keptAs: aside });
  return Object.create(null) as Record<string, unknown>;
}
