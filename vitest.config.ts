import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The client suite has its own packages and runner (npm run test:clients).
    exclude: ['test/clients/**', '**/node_modules/**'],
    // A temporary home first, so nothing a test starts writes into the person's own.
    globalSetup: ['test/setup/temp-home.ts', 'test/setup/tool-coverage.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
