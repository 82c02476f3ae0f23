import { defineConfig } from 'vitest/config';

// Browser tests: playwright-core driving Debian's chromium against a real backend that the
// global setup starts (see e2e/harness.ts). Bounded in time; one file at a time.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    teardownTimeout: 30_000,
  },
});
