import { fileURLToPath } from 'node:url';
import { isAbsolute, resolve } from 'node:path';

/** Same binding as the compiler's loader: `pipewright` is the running package, never a file to watch. */
const OWN_ENTRY = fileURLToPath(new URL('../index.js', import.meta.url));

/**
 * Every local file the definition files pull in, absolute: esbuild resolves the import graph the way the
 * compiler's own bundle does (bare package imports stay external) and its metafile lists the inputs.
 * Undefined when the graph cannot be built (e.g. a syntax error): the caller keeps what it watched before.
 */
export async function bundledInputs(files: readonly string[], cwd = process.cwd()): Promise<string[] | undefined> {
  if (files.length === 0) return [];
  const { build } = await import('esbuild');
  try {
    const result = await build({
      entryPoints: files.map((file) => resolve(cwd, file)),
      absWorkingDir: cwd,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outdir: resolve(cwd, '.pipewright-watch-unused'),
      logLevel: 'silent',
      plugins: [
        {
          name: 'pipewright-self',
          setup(pluginBuild) {
            pluginBuild.onResolve({ filter: /^pipewright$/ }, () => ({ path: OWN_ENTRY, external: true }));
          },
        },
      ],
    });
    // Keys are paths relative to absWorkingDir; virtual modules carry a `namespace:` prefix and are skipped.
    return Object.keys(result.metafile.inputs)
      .filter((key) => !/^[a-z-]+:/.test(key) || isAbsolute(key))
      .map((key) => resolve(cwd, key));
  } catch {
    return undefined;
  }
}
