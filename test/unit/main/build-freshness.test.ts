import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BuildTarget, buildIfStale, electronTarget, isBuildFresh, rendererTarget, sourceFingerprint } from '../../../main/build-freshness';
import { tempDir } from '../../support/temp-dir';

/** A project with two renderer sources, a common module, a lockfile and a fake build that writes index.html. */
function project(): { root: string; target: BuildTarget; builds: () => number; build: () => Promise<void> } {
  const root = tempDir('freshness');
  mkdirSync(join(root, 'renderer', 'src'), { recursive: true });
  mkdirSync(join(root, 'common'));
  writeFileSync(join(root, 'renderer', 'index.html'), '<div id=root></div>');
  writeFileSync(join(root, 'renderer', 'src', 'app.tsx'), 'export const a = 1;');
  writeFileSync(join(root, 'common', 'wire.ts'), 'export const w = 1;');
  writeFileSync(join(root, 'package-lock.json'), '{}');
  let count = 0;
  const build = async () => {
    count += 1;
    mkdirSync(join(root, 'out', 'renderer'), { recursive: true });
    writeFileSync(join(root, 'out', 'renderer', 'index.html'), `<!-- build ${count} -->`);
  };
  return { root, target: rendererTarget(root), builds: () => count, build };
}

/** Moves a file's mtime by `seconds`, as an editor saving it later would. */
function touch(file: string, seconds = 10): void {
  const later = new Date(Date.now() + seconds * 1000);
  utimesSync(file, later, later);
}

describe('build freshness', () => {
  it('builds when there is no output and no record, then not again while nothing changed', async () => {
    const { target, build, builds } = project();
    expect(isBuildFresh(target)).toBe(false);
    expect(await buildIfStale(target, build)).toBe(true);
    expect(isBuildFresh(target)).toBe(true);
    expect(await buildIfStale(target, build)).toBe(false);
    expect(builds()).toBe(1);
  });

  it('is stale when a source file changed (content, mtime), was added or was removed', async () => {
    const { root, target, build } = project();
    await buildIfStale(target, build);
    writeFileSync(join(root, 'renderer', 'src', 'app.tsx'), 'export const a = 22;');
    expect(isBuildFresh(target)).toBe(false);
    await buildIfStale(target, build);

    touch(join(root, 'common', 'wire.ts'));
    expect(isBuildFresh(target)).toBe(false);
    await buildIfStale(target, build);

    writeFileSync(join(root, 'renderer', 'src', 'new.tsx'), '');
    expect(isBuildFresh(target)).toBe(false);
    await buildIfStale(target, build);

    rmSync(join(root, 'renderer', 'src', 'new.tsx'));
    expect(isBuildFresh(target)).toBe(false);
    await buildIfStale(target, build);

    touch(join(root, 'package-lock.json'));
    expect(isBuildFresh(target)).toBe(false);
  });

  it('is stale when the record is missing or unreadable', async () => {
    const { root, target, build } = project();
    await buildIfStale(target, build);
    const record = join(root, 'out', '.build-fingerprints', 'renderer');
    writeFileSync(record, 'not json');
    expect(isBuildFresh(target)).toBe(false);
    rmSync(record);
    expect(isBuildFresh(target)).toBe(false);
  });

  it('is stale when the output is missing or was rebuilt by something else', async () => {
    const { root, target, build } = project();
    await buildIfStale(target, build);
    writeFileSync(join(root, 'out', 'renderer', 'index.html'), '<!-- built by another command from other sources -->');
    expect(isBuildFresh(target)).toBe(false);
    await buildIfStale(target, build);
    rmSync(join(root, 'out', 'renderer'), { recursive: true });
    expect(isBuildFresh(target)).toBe(false);
  });

  it('ignores files outside its sources, and node_modules inside them', async () => {
    const { root, target, build } = project();
    mkdirSync(join(root, 'renderer', 'node_modules'));
    mkdirSync(join(root, 'docs'));
    await buildIfStale(target, build);
    writeFileSync(join(root, 'renderer', 'node_modules', 'cache.js'), '');
    writeFileSync(join(root, 'docs', 'notes.md'), '');
    expect(isBuildFresh(target)).toBe(true);
  });

  it('builds with force even when fresh', async () => {
    const { target, build, builds } = project();
    await buildIfStale(target, build);
    expect(await buildIfStale(target, build, { force: true })).toBe(true);
    expect(builds()).toBe(2);
  });

  it('records the sources as read before the build, so a save during the build makes the next start build', async () => {
    const { root, target, build } = project();
    await buildIfStale(target, async () => {
      await build();
      writeFileSync(join(root, 'renderer', 'src', 'app.tsx'), 'export const a = 3; // saved while building');
    });
    expect(isBuildFresh(target)).toBe(false);
  });

  it('keeps one record per target: the Electron build watches main and preload as well', () => {
    const { root } = project();
    mkdirSync(join(root, 'main'));
    const electron = electronTarget(root);
    const before = sourceFingerprint(electron);
    const rendererBefore = sourceFingerprint(rendererTarget(root));
    writeFileSync(join(root, 'main', 'index.ts'), '');
    expect(sourceFingerprint(electron)).not.toBe(before);
    expect(sourceFingerprint(rendererTarget(root))).toBe(rendererBefore);
  });
});
