import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      { find: /^pipewright$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^pipewright\/testing$/, replacement: fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)) },
    ],
  },
  test: {
    // examples/*/test: the vitest examples of `pipewright/testing`, run as a user runs them.
    include: ['test/**/*.test.ts', 'examples/*/test/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // CLI tests spawn the real binary; two cores are all there is.
    maxWorkers: 2,
  },
});
