/**
 * Build only when the sources changed (docs/benchmarks.md, "Start-up on a built checkout"): `npm start` used to rebuild the renderer (browser
 * host) or everything (Electron) on every start. A build records a fingerprint of its sources (every
 * file's path, size and mtime under the given folders, plus single files such as configs and the
 * lockfile) together with the size and mtime of its output's entry file; the next start builds again only
 * when either differs. The record lives in `out/.build-fingerprints/<name>`, outside the folders the
 * hosts serve or package. Any doubt (no record, unreadable record, no output) means "build".
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { z } from 'zod';
import { parseJsonMessage } from '../common/json-message';

export interface BuildTarget {
  /** Record name, e.g. `renderer` or `electron`. */
  name: string;
  /** Project root; `sources`, `output` and the record are relative to it. */
  root: string;
  /** Folders (walked recursively) and files whose change makes the build stale. */
  sources: readonly string[];
  /** The build's entry output (e.g. `out/renderer/index.html`): missing or replaced means stale. */
  output: string;
}

/** Folders never walked: dependencies, build output, tool caches. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'out', '.git', 'test-results', 'dist']);

/** What the browser host serves: the renderer and what it imports from common/, built by Vite. */
export function rendererTarget(root: string): BuildTarget {
  return {
    name: 'renderer',
    root,
    sources: ['renderer', 'common', 'tsconfig.web.json', 'package.json', 'package-lock.json'],
    output: 'out/renderer/index.html',
  };
}

/** What the Electron host runs: main (which bundles the embedded demo services), preload and renderer. */
export function electronTarget(root: string): BuildTarget {
  return {
    name: 'electron',
    root,
    sources: [
      'main',
      'preload',
      'renderer',
      'common',
      'services',
      'electron.vite.config.ts',
      'tsconfig.json',
      'tsconfig.web.json',
      'package.json',
      'package-lock.json',
    ],
    output: 'out/main/index.js',
  };
}

/** sha-256 over the sorted `path size mtime` lines of every source file; missing sources count as absent. */
export function sourceFingerprint(target: BuildTarget): string {
  const lines: string[] = [];
  const visit = (path: string): void => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      return;
    }
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIPPED_FOLDERS.has(entry)) visit(join(path, entry));
    } else if (stats.isFile()) {
      lines.push(`${relative(target.root, path)}\t${stats.size}\t${stats.mtimeMs}`);
    }
  };
  for (const source of target.sources) visit(join(target.root, source));
  lines.sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

function outputStamp(target: BuildTarget): string | undefined {
  try {
    const stats = statSync(join(target.root, target.output));
    return stats.isFile() ? `${stats.size}\t${stats.mtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

function recordPath(target: BuildTarget): string {
  return join(target.root, 'out', '.build-fingerprints', target.name);
}

const BuildRecordSchema = z.object({ sources: z.string(), output: z.string() });
type BuildRecord = z.infer<typeof BuildRecordSchema>;

/** True when the output exists, is the one the last recorded build wrote, and the sources did not change since. */
export function isBuildFresh(target: BuildTarget): boolean {
  const output = outputStamp(target);
  if (output === undefined) return false;
  let text: string;
  try {
    text = readFileSync(recordPath(target), 'utf8');
  } catch {
    return false;
  }
  const record = parseJsonMessage(BuildRecordSchema, text);
  return record !== undefined && record.output === output && record.sources === sourceFingerprint(target);
}

/** Records that the output was just built from the sources as they are now (`fingerprint`: as read before the build). */
export function recordBuild(target: BuildTarget, fingerprint: string): void {
  const output = outputStamp(target);
  if (output === undefined) return;
  const file = recordPath(target);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ sources: fingerprint, output } satisfies BuildRecord));
}

/**
 * Runs `build` unless the target is fresh (or always with `force`), then records it. The fingerprint is
 * read before building, so a source saved during the build makes the next start build again.
 * Returns whether it built.
 */
export async function buildIfStale(target: BuildTarget, build: () => Promise<void>, options: { force?: boolean } = {}): Promise<boolean> {
  if (!options.force && isBuildFresh(target)) return false;
  const fingerprint = sourceFingerprint(target);
  await build();
  recordBuild(target, fingerprint);
  return true;
}
