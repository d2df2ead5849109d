import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      // Unit tests are fast; the limit is for a loaded machine (property tests run a hundred cases), not a target.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', setupFiles: ['test/support/vitest-setup.ts'], testTimeout: 20_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/support/vitest-setup.ts'],
          // Some run the services as deployed: built to plain JavaScript once, before any test file.
          globalSetup: ['test/support/built-services-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
