/**
 * The boundaries of main/core (docs/architecture.md, "main/core"), as eslint.config.js enforces them: planted
 * imports, linted as if they were files of the tree, must be refused, and the allowed ones let through.
 * Only `no-restricted-imports` matters here, so the type-aware rules (which need files on disk) are off.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'off',
    },
  },
});

/** The `no-restricted-imports` messages for `source` linted as the file at `path`. */
async function refusals(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const planted = x;\n`, { filePath: `${root}${path}` });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('main/core boundaries', () => {
  it("refuses a deep import into another section's files, from a section and from a host", async () => {
    expect(await refusals('main/core/hubs/planted.ts', "import { x } from '../sign-in/cloud-client';")).toEqual([expect.stringMatching(/through its index/)]);
    expect(await refusals('main/browser-host/planted.ts', "import { x } from '../core/hubs/open-hub';")).toEqual([expect.stringMatching(/public face/)]);
    expect(await refusals('main/electron/planted.ts', "import { x } from '../core/webhooks/webhook-history';")).toEqual([expect.stringMatching(/public face/)]);
  });

  it('refuses a section the table does not allow, and lets the allowed ones and its own files through', async () => {
    expect(await refusals('main/core/webhooks/planted.ts', "import { x } from '../hubs';")).toEqual([expect.stringMatching(/may import only shared, sign-in/)]);
    expect(await refusals('main/core/shared/planted.ts', "import { x } from '../sign-in';")).toEqual([expect.stringMatching(/may import only common/)]);
    expect(await refusals('main/core/sign-in/planted.ts', "import { x } from '../host';")).toHaveLength(1);
    expect(await refusals('main/core/webhooks/planted.ts', "import { x } from '../sign-in';\nimport { y } from './webhook-inspector';")).toEqual([]);
    expect(await refusals('main/core/host/planted.ts', "import { x } from '../webhooks';\nimport { y } from '../../../common/emitter';")).toEqual([]);
    expect(await refusals('main/browser-host/planted.ts', "import { x } from '../core/hubs';")).toEqual([]);
  });

  it('keeps the older rules: electron only in the host, the services only from main/backend.ts', async () => {
    expect(await refusals('main/core/hubs/planted.ts', "import { x } from 'electron';")).toHaveLength(1);
    expect(await refusals('main/core/host/planted.ts', "import { x } from '../../../services/stack';")).toHaveLength(1);
    expect(await refusals('main/electron/planted.ts', "import { x } from '../../services/stack';")).toHaveLength(1);
  });

  it("keeps the services' own package apart: only main/backend.ts loads it, and no app code imports its dependencies", async () => {
    expect(await refusals('main/backend.ts', "const stack = await import('@hubdesk/services/stack');")).toEqual([]);
    expect(await refusals('main/core/host/planted.ts', "import { x } from '@hubdesk/services/stack';")).toEqual([
      expect.stringMatching(/Only main\/backend.ts/),
    ]);
    expect(await refusals('renderer/src/planted.ts', "import { x } from '@hubdesk/services/stack';")).toEqual([expect.stringMatching(/through the bridge/)]);
    const servicesPackage = expect.stringMatching(/services\/package.json/);
    expect(await refusals('main/browser-host/planted.ts', "import { x } from 'fastify';")).toEqual([servicesPackage]);
    expect(await refusals('main/core/webhooks/planted.ts', "import { x } from 'ioredis';")).toEqual([servicesPackage]);
    expect(await refusals('main/electron/planted.ts', "import { x } from 'jose';")).toEqual([servicesPackage]);
    expect(await refusals('common/planted.ts', "import { x } from 'prom-client';")).toEqual([servicesPackage]);
    expect(await refusals('renderer/src/planted.ts', "import { x } from '@jitl/quickjs-wasmfile-release-sync';")).toEqual([servicesPackage]);
    // What the app does depend on stays allowed.
    expect(await refusals('main/browser-host/planted.ts', "import { x } from 'ws';\nimport { y } from 'zod';")).toEqual([]);
  });
});
