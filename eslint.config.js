// @ts-check
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const electronOnlyInHost = {
  paths: [{ name: 'electron', message: 'Only main/electron/ and preload/ may import electron (see docs/architecture.md).' }],
  patterns: [{ group: ['electron/*'], message: 'Only main/electron/ and preload/ may import electron.' }],
};

/** `no-restricted-imports` as everywhere (electron only in the host) with `patterns` refused besides. */
const restrictImports = (...patterns) => ['error', { ...electronOnlyInHost, patterns: [...electronOnlyInHost.patterns, ...patterns] }];

const servicesOnlyFromBackend = {
  group: ['**/services/**', '@hubdesk/services', '@hubdesk/services/*'],
  message: 'Only main/backend.ts starts the reference stack; the app talks to the services over HTTP.',
};
/**
 * The packages only the reference services depend on (services/package.json, less what the app's
 * package.json also lists; docs/dependencies.md): the app's code never imports them, so the app's own
 * `dependencies` stay what it needs.
 */
const dependenciesOf = (file) => Object.keys(JSON.parse(readFileSync(join(import.meta.dirname, file), 'utf8')).dependencies);
const appDependencies = new Set(dependenciesOf('./package.json'));
const servicesPackages = {
  group: dependenciesOf('./services/package.json').flatMap((name) => (appDependencies.has(name) ? [] : [name, `${name}/*`])),
  message: 'A package of the reference services (services/package.json), not of the app: the app does not depend on it.',
};
const coreThroughFaces = {
  regex: '(^|/)core/[a-z-]+/',
  message: 'Import a main/core section through its index (main/core/<section>), its public face (docs/architecture.md, "main/core").',
};

/**
 * The sections of main/core and the sections each may import (docs/architecture.md, "main/core", the same
 * table): a section imports another only through its index, and only along these lines, so no section
 * reaches into another's files or back up the layers.
 */
const CORE_SECTIONS = {
  shared: [],
  'sign-in': ['shared'],
  hubs: ['shared', 'sign-in'],
  webhooks: ['shared', 'sign-in'],
  desktop: ['shared', 'hubs'],
  host: ['shared', 'sign-in', 'hubs', 'webhooks', 'desktop'],
};
const coreSectionRules = Object.entries(CORE_SECTIONS).map(([section, mayImport]) => {
  const others = Object.keys(CORE_SECTIONS).filter((other) => other !== section && !mayImport.includes(other));
  return {
    files: [`main/core/${section}/**/*.ts`],
    rules: {
      'no-restricted-imports': restrictImports(
        servicesOnlyFromBackend,
        servicesPackages,
        { regex: '^\\.\\./[a-z-]+/', message: 'Import another main/core section through its index (../<section>), never its files.' },
        ...(others.length > 0
          ? [
              {
                regex: `^\\.\\./(${others.join('|')})$`,
                message: `main/core/${section} may import only ${mayImport.join(', ') || 'common/'} (docs/architecture.md, "main/core").`,
              },
            ]
          : []),
      ),
    },
  };
});

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules (docs/testing.md, "Lint"): each TypeScript file is read with the types of its
    // project, the nearest tsconfig.json (renderer/tsconfig.json for the renderer).
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['test/bench/chart-page.ts', 'test/bench/react-floor-page.tsx'], defaultProject: 'tsconfig.web.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    rules: {
      'no-restricted-imports': ['error', electronOnlyInHost],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The app reaches the reference services only to start the embedded demo stack, in one module
    // (before the block below, which lifts every import restriction from the Electron host's files).
    files: ['main/**/*.ts', 'preload/**/*.ts', 'common/**/*.ts'],
    ignores: ['main/backend.ts'],
    rules: {
      'no-restricted-imports': restrictImports(servicesOnlyFromBackend, coreThroughFaces, servicesPackages),
    },
  },
  ...coreSectionRules,
  {
    // The Electron host and the preload bridge are the only places that may touch electron.
    files: ['main/electron/**', 'preload/**', 'main/index.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [servicesOnlyFromBackend, coreThroughFaces, servicesPackages] }] },
  },
  {
    files: ['test/unit/main/electron/**', 'test/e2e/electron/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The reference services stand alone: they are the app's peers, not part of it (what both need is in common/).
    files: ['services/**/*.{ts,mjs}'],
    rules: {
      'no-restricted-imports': restrictImports({
        group: ['**/main/**'],
        message: 'The reference services import nothing from main/: share it through common/.',
      }),
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrictImports(
        { group: ['**/main/**', '**/services/**', '@hubdesk/services', '@hubdesk/services/*'], message: 'The renderer talks to main only through the bridge.' },
        servicesPackages,
      ),
    },
  },
);
