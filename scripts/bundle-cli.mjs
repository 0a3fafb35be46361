// `npm run build`, after tsc: bundles the binary into one file, dist/bundle/cli.js (see src/cli/bundle-entry.ts).
// Packages with native parts or of their own size stay outside: esbuild and the optional peers of import.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names change with their content: no chunk of an earlier build may stay beside the new ones.
rmSync('dist/bundle', { recursive: true, force: true });

await build({
  // The binary, and the worker of large compiles (worker-script.ts finds it beside the binary).
  entryPoints: { cli: 'dist/cli/bundle-entry.js', 'compile-worker': 'dist/cli/bundle-compile-worker.js' },
  outdir: 'dist/bundle',
  bundle: true,
  // What the library imports only when needed (import's TypeScript tooling, --typecheck) stays in chunks of its own,
  // loaded when needed, as before.
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['esbuild', 'prettier', 'prettier/*', 'ts-morph', 'typescript', '@typescript/*'],
  // CommonJS packages inside (commander) require Node's builtins; an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __pipewrightRequire } from 'node:module'; const require = __pipewrightRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
