import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The compiled file of the worker script `path` (relative to the compiled tree's root, e.g. `compile/compile-worker`),
 * found from `caller` (its `import.meta.url`), a module one folder down that tree: `dist/compile/worker-pool.js`,
 * or the binary's single-file build `dist/bundle/cli.js` (which has its own build of some workers). Under the tests the
 * code runs from src/ (TypeScript), which a worker cannot load, so the built copy in dist/ is used (`npm test`
 * builds first).
 */
export function workerScript(caller: string, path: string): string {
  const here = fileURLToPath(caller);
  const tree = dirname(dirname(here));
  // The single-file build's own build of the worker, when it has one (scripts/bundle-cli.mjs).
  const bundled = join(dirname(here), `${basename(path)}.js`);
  if (basename(dirname(here)) === 'bundle' && existsSync(bundled)) return bundled;
  if (here.endsWith('.js')) return join(tree, `${path}.js`);
  const built = join(dirname(tree), 'dist', `${path}.js`);
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build`);
  return built;
}
