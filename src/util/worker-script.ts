import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The compiled file of the worker script `name`, in the folder of `caller` (its `import.meta.url`). Under the
 * tests the code runs from src/ (TypeScript), which a worker cannot load, so the built copy in dist/ is used
 * (`npm test` builds first).
 */
export function workerScript(caller: string, name: string): string {
  const here = fileURLToPath(caller);
  if (here.endsWith('.js')) return join(dirname(here), `${name}.js`);
  const built = join(dirname(dirname(dirname(here))), 'dist', basename(dirname(here)), `${name}.js`);
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build`);
  return built;
}
