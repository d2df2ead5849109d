import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportLoops } from '../../../scripts/import-loops';
import { tempDir } from '../../support/temp-dir';

/** A folder of modules, each given by its path and its source. */
function tree(files: Record<string, string>): string {
  const dir = tempDir('import-loops');
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  return dir;
}

describe('findImportLoops', () => {
  it('finds a loop through three modules in two folders, and a loop of type-only imports', async () => {
    const dir = tree({
      'a/one.ts': "import { two } from './two';\nexport const one = () => two();\n",
      'a/two.ts': "import { three } from '../b/three';\nexport const two = () => three;\n",
      'b/three.ts': "import { one } from '../a/one';\nexport const three = typeof one;\n",
      'b/budget.ts': "import type { Buffer } from './buffer';\nexport interface Budget { held: Buffer[] }\n",
      'b/buffer.tsx': "import type { Budget } from './budget';\nexport interface Buffer { budget: Budget }\n",
    });
    const loops = await findImportLoops(['a', 'b'], dir);
    expect(loops.sort()).toEqual(['a/one.ts > a/two.ts > b/three.ts > a/one.ts', 'b/budget.ts > b/buffer.tsx > b/budget.ts']);
  });

  it('finds none where the shared part lives apart, and none outside the folders asked', async () => {
    const dir = tree({
      'a/shared.ts': 'export interface Seed { name: string }\n',
      'a/home.ts': "import type { Seed } from './shared';\nimport { generated } from './generated';\nexport const seeds: Seed[] = generated();\n",
      'a/generated.ts': "import type { Seed } from './shared';\nexport const generated = (): Seed[] => [];\n",
      'elsewhere/x.ts': "import './y';\n",
      'elsewhere/y.ts': "import './x';\n",
    });
    expect(await findImportLoops(['a'], dir)).toEqual([]);
    expect(await findImportLoops(['elsewhere'], dir)).toEqual(['elsewhere/x.ts > elsewhere/y.ts > elsewhere/x.ts']);
  });

  it('refuses to check nothing', async () => {
    await expect(findImportLoops([])).rejects.toThrow('no folder to check');
  });
});
