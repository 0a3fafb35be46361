import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiagnosticError } from '../src/core/diagnostics.js';
import {
  apartByCase,
  bundleAhead,
  chunksOf,
  loadInChunks,
  loadModules,
  startBundler,
  type LoadedModule,
} from '../src/compile/load-modules.js';
import { tempDir, writeIn } from './support/cli.js';

// Compile loads entry files chunk by chunk (src/compile/load-modules.ts): esbuild bundles the next chunks in its
// own process while this thread evaluates one. What comes out, and what fails, must be what one bundle gives.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-chunks-')));
afterEach(async () => cleanup());

const names = (n: number) => Array.from({ length: n }, (_, i) => `defs/e${String(i).padStart(2, '0')}.ts`);
const entry = (file: string, extra = '') =>
  `import { shared } from '../lib/shared.js';\n${extra}export const name = ${JSON.stringify(file)} + shared;\n`;

async function project(
  count: number,
  overrides: Record<string, string> = {},
  library = "export const shared = '!';\n",
) {
  await writeIn(dir, 'lib/shared.ts', library);
  for (const file of names(count)) await writeIn(dir, file, overrides[file] ?? entry(file));
  return names(count).map((file) => join(dir, file));
}

async function collect(files: readonly string[]): Promise<LoadedModule[]> {
  const loaded: LoadedModule[] = [];
  for await (const modules of loadInChunks(files)) loaded.push(...modules);
  return loaded;
}

const failure = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DiagnosticError);
  return (error as DiagnosticError).diagnostics;
};

describe('loading entry files chunk by chunk', () => {
  it("resolves a definition's packages from the working directory of each load, in one process", async () => {
    // Bundles are written under the nearest node_modules of the working directory: their bare imports resolve there.
    for (const project of ['a', 'b']) {
      await writeIn(
        dir,
        `${project}/node_modules/fake-pkg/package.json`,
        '{ "name": "fake-pkg", "type": "module", "exports": "./index.js" }\n',
      );
      await writeIn(dir, `${project}/node_modules/fake-pkg/index.js`, `export const from = '${project}';\n`);
      await writeIn(dir, `${project}/def.ts`, "import { from } from 'fake-pkg';\nexport const name = from;\n");
    }
    const before = process.cwd();
    try {
      const names = [];
      for (const project of ['a', 'b']) {
        process.chdir(join(dir, project));
        names.push((await loadModules(['def.ts']))[0]!.exports.name);
      }
      expect(names).toEqual(['a', 'b']);
    } finally {
      process.chdir(before);
    }
  });

  it('cuts the files into chunks of 16, 32, 64, then 128, in order', () => {
    const files = Array.from({ length: 300 }, (_, i) => i);
    const chunks = chunksOf(files);
    expect(chunks.map((c) => c.length)).toEqual([16, 32, 64, 128, 60]);
    expect(chunks.flat()).toEqual(files);
    expect(chunksOf([1, 2, 3])).toEqual([[1, 2, 3]]);
  });

  it('gives every module, in the order of the files, as one bundle does', async () => {
    const files = await project(60);
    const chunked = await collect(files);
    const whole = await loadModules(files);
    expect(chunked.map((m) => [m.file, m.exports.name, m.dependencies.length])).toEqual(
      whole.map((m) => [m.file, m.exports.name, m.dependencies.length]),
    );
    expect(chunked[59]!.exports.name).toBe('defs/e59.ts!');
  });

  it('reports a syntax error in a library that every chunk imports once', async () => {
    const files = await project(60, {}, "export const shared = '!' +;\n");
    const found = await failure(collect(files));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      code: 'syntax-error',
      location: { file: expect.stringMatching(/lib\/shared\.ts$/), line: 1 },
    });
  });

  it('reports a syntax error of a later chunk rather than a definition that throws in an earlier one, as one bundle does', async () => {
    const files = await project(60, {
      'defs/e02.ts': entry('defs/e02.ts', "if (Date.now() > 0) throw new Error('no config');\n"),
      'defs/e50.ts': entry('defs/e50.ts', 'const broken = ;\n'),
    });
    const expected = await failure(loadModules(files));
    const found = await failure(collect(files));
    expect(found).toEqual(expected);
    expect(found.map((d) => d.code)).toEqual(['syntax-error']);
    expect(found[0]!.location).toMatchObject({ file: expect.stringMatching(/defs\/e50\.ts$/), line: 2 });
  });

  it('reports a definition that throws in a later chunk as one bundle does, when nothing has a syntax error', async () => {
    const files = await project(60, {
      'defs/e40.ts': entry('defs/e40.ts', "if (Date.now() > 0) throw new Error('no config for e40');\n"),
    });
    const found = await failure(collect(files));
    // Under the tests the first frame outside the library is this file's: where it is is checked by the CLI's tests.
    const placeless = (diagnostics: readonly object[]) =>
      diagnostics.map(({ location: _location, ...rest }: { location?: unknown }) => rest);
    expect(placeless(found)).toEqual(placeless(await failure(loadModules(files))));
    expect(found).toHaveLength(1);
    expect(found[0]!.code).toBe('definition-threw');
    expect(found[0]!.message).toContain('no config for e40');
  });

  it('takes a first chunk bundled ahead only for the same files; one not taken fails nobody', async () => {
    const files = await project(20);
    // esbuild's process started early, twice (esbuild's own initialize may be called once only): no harm.
    startBundler();
    startBundler();
    await writeIn(dir, 'other/x.ts', "export const name = 'other';\n");
    await writeIn(dir, 'other/broken.ts', 'export const = ;\n');
    // Started for other files (a compile that then reuses cached outputs loads others): not used.
    bundleAhead([join(dir, 'other/x.ts')]);
    expect((await collect(files)).map((m) => m.exports.name)).toEqual(
      (await loadModules(files)).map((m) => m.exports.name),
    );
    // Started for these files: the same modules as without it.
    bundleAhead(files);
    expect((await collect(files)).map((m) => m.exports.name)).toEqual(names(20).map((file) => `${file}!`));
    // A syntax error in a bundle nobody takes is not an unhandled rejection (the test runner would fail on one).
    bundleAhead([join(dir, 'other/broken.ts')]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await collect(files)).length).toBe(20);
  });

  it("maps the bundles' frames itself (Node's source maps stay off): call sites and throws name the user's lines", async () => {
    // In a Node process of its own: the test runner replaces the stack formatting that source maps go through.
    const files = await project(3, {
      'defs/e01.ts': entry('defs/e01.ts', 'export const stack = () => new Error().stack ?? "";\n'),
    });
    await writeIn(dir, 'defs/t.ts', entry('defs/t.ts', "if (Date.now() > 0) throw new Error('no config');\n"));
    const thrown = [join(dir, 'defs/t.ts')];
    const dist = (file: string) => JSON.stringify(pathToFileURL(join(ROOT, 'dist', file)).href);
    const script = `import { loadInChunks, withBundleMaps } from ${dist('compile/load-modules.js')};
      import { firstUserFrame } from ${dist('core/source-site.js')};
      const seen = {};
      await withBundleMaps(async () => {
        for await (const modules of loadInChunks(${JSON.stringify(files)})) if (modules[1]) seen.inside = firstUserFrame(modules[1].exports.stack());
        try { for await (const _ of loadInChunks(${JSON.stringify(thrown)})); } catch (error) { seen.thrown = error.diagnostics[0].location; seen.debug = error.cause.stack; }
      });
      const late = [];
      for await (const modules of loadInChunks(${JSON.stringify(files)})) late.push(...modules);
      seen.raw = late[1].exports.stack();
      seen.outside = firstUserFrame(seen.raw);
      seen.nodeMaps = process.sourceMapsEnabled;
      console.log(JSON.stringify(seen));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
    const seen = JSON.parse(stdout) as Record<string, unknown>;
    expect(seen.inside).toEqual({ file: 'defs/e01.ts', line: 2, column: expect.any(Number) });
    expect(seen.thrown).toEqual({ file: 'defs/t.ts', line: 2, column: expect.any(Number) });
    expect(seen.debug).toMatch(/defs\/t\.ts:2:\d+/);
    // Outside a scope the map is gone once the bundle is imported: its frame is nobody's, the caller's is next.
    // Node never maps anything itself.
    expect(seen.raw).toMatch(/bundle-[^\n]*\.mjs:\d+:\d+/);
    expect(JSON.stringify(seen.outside)).not.toMatch(/bundle-|e01\.ts/);
    expect(seen.nodeMaps).toBe(false);
  });
});

describe('entry files whose paths differ only in case', () => {
  it('are bundled apart, so each is loaded (esbuild takes ci.ts and CI.ts for one file)', async () => {
    await writeIn(dir, 'defs/CI.ts', "export const upper = 'CI';\n");
    await writeIn(dir, 'defs/ci.ts', "export const lower = 'ci';\n");
    await writeIn(dir, 'defs/other.ts', "export const other = 'other';\n");
    const files = ['defs/CI.ts', 'defs/ci.ts', 'defs/other.ts'].map((file) => join(dir, file));
    expect(apartByCase([files])).toEqual([[files[0], files[2]], [files[1]]]);
    const loaded = await loadModules(files);
    expect(loaded.map((module) => Object.keys(module.exports))).toEqual([['upper'], ['lower'], ['other']]);
    const chunked: LoadedModule[] = [];
    for await (const modules of loadInChunks(files)) chunked.push(...modules);
    expect(chunked.map((module) => Object.keys(module.exports)).sort()).toEqual([['lower'], ['other'], ['upper']]);
  });
});
