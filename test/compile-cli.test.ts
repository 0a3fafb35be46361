import { mkdir, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const write = (file: string, text: string) => writeIn(dir, file, text);
const compile = (...args: string[]) => runCli(['compile', ...args], { cwd: dir });

async function snapshotTree(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)));
  return Object.fromEntries(
    await Promise.all(files.sort().map(async (f) => [f, await readFile(join(root, f), 'utf8')] as const)),
  );
}

const GOOD = `import { deployment, input, pipeline, project, shell } from 'pipewright';
export const web = project({ identifier: 'web' });
export const deploy = pipeline({ identifier: 'deploy', project: web })
  .stage(deployment({ identifier: 'prod', service: input(), environment: input(), infrastructure: { connector: input(), namespace: 'web' } }))
  .step(shell({ identifier: 'echo', script: 'echo hi', timeout: '10m' }));
`;

describe('pipewright compile', () => {
  it('writes the layout and a manifest, and reports what it wrote', async () => {
    await write('defs/web.ts', GOOD);
    const result = await compile('defs/*.ts', '-o', 'out');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('compiled 2 documents to out: 3 written, 0 unchanged, 0 removed\n');
    expect(Object.keys(await snapshotTree(join(dir, 'out')))).toEqual([
      'manifest.json',
      'pipelines/default/web/deploy.yaml',
      'projects/default/web.yaml',
    ]);
    const manifest = JSON.parse(await readFile(join(dir, 'out/manifest.json'), 'utf8'));
    expect(
      manifest.files.map((f: { kind: string; file: string; source: string }) => [f.kind, f.file, f.source]),
    ).toEqual([
      ['project', 'projects/default/web.yaml', 'defs/web.ts'],
      ['pipeline', 'pipelines/default/web/deploy.yaml', 'defs/web.ts'],
    ]);
  });

  it('is deterministic: two compiles give byte-identical trees, and a recompile rewrites nothing', async () => {
    await write('defs/web.ts', GOOD);
    await compile('defs/web.ts', '-o', 'a');
    await compile('defs/web.ts', '-o', 'b');
    expect(await snapshotTree(join(dir, 'a'))).toEqual(await snapshotTree(join(dir, 'b')));
    const before = await stat(join(dir, 'a/projects/default/web.yaml'));
    const again = await compile('defs/web.ts', '-o', 'a');
    expect(again.stdout).toBe('compiled 2 documents to a: 0 written, 3 unchanged, 0 removed\n');
    expect((await stat(join(dir, 'a/projects/default/web.yaml'))).mtimeMs).toBe(before.mtimeMs);
  });

  it('exits 1 with located messages for a bad timeout, a duplicate step id and an invalid identifier, leaving the previous output intact', async () => {
    await write('defs/web.ts', GOOD);
    await compile('defs/web.ts', '-o', 'out');
    const previous = await snapshotTree(join(dir, 'out'));
    await write(
      'defs/web.ts',
      GOOD.replace("timeout: '10m'", "timeout: '10x'") +
        `export const other = pipeline({ identifier: 'other', project: web })
  .stage(deployment({ identifier: 'bad-stage', service: 's', environment: 'e', infrastructure: { connector: 'c', namespace: 'n' } }))
  .step(shell({ identifier: 'a', script: 'x' }))
  .step(shell({ identifier: 'a', script: 'y' }));
`,
    );
    const result = await compile('defs/web.ts', '-o', 'out');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        'defs/web.ts:5:9  pipeline "deploy" > stage "prod" > step "echo": timeout "10x" is not a duration (e.g. 10m, 1h30m, 1d) [error invalid-format]',
        'defs/web.ts:7:10  pipeline "other" > stage "bad-stage": identifier "bad-stage" is not a valid identifier: start with a letter or _, then letters, digits or _ (at most 128 characters) [error invalid-format]',
        'defs/web.ts:9:9  pipeline "other" > stage "bad-stage" > step "a": step identifier "a" is used twice in execution.steps: steps[0] and steps[1] [error duplicate-identifier]',
        '    hint: identifiers must be unique within execution.steps; rename one (a step used twice needs its own identifier in each place)',
        '',
        '3 errors',
        '',
      ].join('\n'),
    );
    expect(await snapshotTree(join(dir, 'out'))).toEqual(previous);
    expect((await readdir(dir)).filter((f) => f.includes('pipewright'))).toEqual([]);
  });

  it('keeps files it did not generate, and removes outputs of resources that are gone', async () => {
    await write('defs/web.ts', GOOD);
    await compile('defs/web.ts', '-o', 'out');
    await write('out/README.md', 'mine');
    await write('defs/web.ts', GOOD.replace(/export const deploy[\s\S]*$/, ''));
    const result = await compile('defs/web.ts', '-o', 'out');
    expect(result.stdout).toBe(
      'compiled 1 document to out: 1 written, 1 unchanged, 1 removed\n  removed  pipelines/default/web/deploy.yaml  (defs/web.ts no longer exports it)\n',
    );
    expect(Object.keys(await snapshotTree(join(dir, 'out')))).toEqual([
      'README.md',
      'manifest.json',
      'projects/default/web.yaml',
    ]);
    expect(await readFile(join(dir, 'out/README.md'), 'utf8')).toBe('mine');
  });

  it('collects arrays of resources and ignores exports that are not resources', async () => {
    await write(
      'defs/many.ts',
      `import { project, shell } from 'pipewright';
export const projects = ['a', 'b'].map((identifier) => project({ identifier }));
export const helper = shell({ identifier: 'x', script: 'x' });
export const answer = 42;
export default projects[0];
`,
    );
    const result = await compile('defs/many.ts', '-o', 'out');
    expect(result.stdout).toBe('compiled 2 documents to out: 3 written, 0 unchanged, 0 removed\n');
  });

  it('reports the same resource defined in two files', async () => {
    await write(
      'defs/a.ts',
      `import { project } from 'pipewright';\nexport const a = project({ identifier: 'web' });\n`,
    );
    await write(
      'defs/b.ts',
      `import { project } from 'pipewright';\n\nexport const b = project({ identifier: 'web' });\n`,
    );
    const result = await compile('defs/*.ts', '-o', 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('defs/b.ts:3:18  project "web": project "web" in org default is defined twice');
    expect(result.stderr).toContain('hint: the other one is export "a" at defs/a.ts:2:18; rename one identifier');
  });

  it('locates a TypeScript syntax error', async () => {
    await write(
      'defs/broken.ts',
      `import { project } from 'pipewright';\nexport const p = project({ identifier: 'x' ;\n`,
    );
    const result = await compile('defs/broken.ts', '-o', 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^defs\/broken\.ts:2:44  Expected "}" but found ";"/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("builds definitions with the binary's own instance of the library, in one thread and in worker batches", async () => {
    // The binary is a single-file build that exports the library too (src/cli/bundle-entry.ts); a definition's
    // `pipewright` must be that file, not a second copy of the library: `main` is exported by it alone.
    const definition = (id: string) =>
      `import * as lib from 'pipewright';\nif (!('main' in lib)) throw new Error('a second copy of pipewright');\nexport const p = lib.project({ identifier: '${id}', name: '${id}', org: 'default' });\n`;
    await write('defs/a.ts', definition('a'));
    await write('defs/b.ts', definition('b'));
    const inThread = await compile('defs/*.ts', '-o', 'out');
    expect(inThread.stderr).toBe('');
    expect(inThread.code).toBe(0);
    const inWorkers = await runCli(['compile', 'defs/*.ts', '-o', 'out2'], {
      cwd: dir,
      env: { PIPEWRIGHT_BATCH_SIZE: '1', PIPEWRIGHT_NO_CACHE: '1' },
    });
    expect(inWorkers.stderr).toBe('');
    expect(inWorkers.code).toBe(0);
  });

  it('locates a definition file that throws, with the stack only under --debug', async () => {
    await write(
      'defs/throws.ts',
      `import { project } from 'pipewright';\n\nthrow new Error('no config for region');\n`,
    );
    const result = await compile('defs/throws.ts', '-o', 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^defs\/throws\.ts:3:7  loading the definitions threw: no config for region/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const debug = await runCli(['--debug', 'compile', 'defs/throws.ts', '-o', 'out'], { cwd: dir });
    expect(debug.stderr).toMatch(/\n\s+at .*throws\.ts:3:7/);
  });

  it('locates definitions by their own path when the node_modules above them is a symlink', async () => {
    await mkdir(join(dir, 'elsewhere', 'node_modules'), { recursive: true });
    await mkdir(join(dir, 'repo'));
    await symlink(join(dir, 'elsewhere', 'node_modules'), join(dir, 'repo', 'node_modules'));
    await write(
      'repo/defs/throws.ts',
      `import { project } from 'pipewright';\n\nthrow new Error('no config for region');\n`,
    );
    const result = await runCli(['compile', 'defs/throws.ts', '-o', 'out'], { cwd: join(dir, 'repo') });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^defs\/throws\.ts:3:7  loading the definitions threw: no config for region/);
  });

  it('locates misuse of a builder at the user line', async () => {
    await write(
      'defs/misuse.ts',
      `import { pipeline, shell } from 'pipewright';\nexport const p = pipeline({ identifier: 'p', project: 'x' })\n  .step(shell({ identifier: 's', script: 'x' }));\n`,
    );
    const result = await compile('defs/misuse.ts', '-o', 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^defs\/misuse\.ts:3:4  loading the definitions threw: pipeline "p"\.step\(\): add a stage with \.stage\(\) before adding steps/,
    );
  });

  it('says when nothing matches or nothing is exported', async () => {
    const none = await compile('nothing/*.ts', '-o', 'out');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no files match "nothing/*.ts"');
    await write('defs/empty.ts', 'export const x = 1;\n');
    const empty = await compile('defs/empty.ts', '-o', 'out');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('no resources exported from defs/empty.ts');
  });

  it('uses include and outDir from pipewright.config.ts', async () => {
    await write('pipelines/web.ts', GOOD);
    await write(
      'pipewright.config.ts',
      `import { defineConfig } from 'pipewright';\nexport default defineConfig({ include: ['pipelines/**/*.ts'], outDir: 'generated' });\n`,
    );
    const result = await compile();
    expect(result.stdout).toBe('compiled 2 documents to generated: 3 written, 0 unchanged, 0 removed\n');
  });

  it('rejects an unknown config key with its location', async () => {
    await write('pipewright.config.ts', `export default { include: ['x.ts'], outdir: 'x' };\n`);
    const result = await compile();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipewright.config.ts  config:');
    expect(result.stderr).toContain('outdir');
  });

  it('exits 2 on usage errors', async () => {
    expect((await runCli(['compile', '--bogus'], { cwd: dir })).code).toBe(2);
    const unknown = await runCli(['compil'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('(Did you mean compile?)');
    const bare = await runCli([], { cwd: dir });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: pipewright [options] [command]');
  });

  it('prints diagnostics as JSON with --json', async () => {
    await write('defs/web.ts', GOOD.replace("timeout: '10m'", "timeout: '10x'"));
    const result = await compile('defs/web.ts', '-o', 'out', '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        code: 'invalid-format',
        severity: 'error',
        location: { file: 'defs/web.ts', line: 5, column: 9 },
        path: ['pipeline', 'stages', 0, 'stage', 'spec', 'execution', 'steps', 0, 'step', 'timeout'],
      }),
    ]);
  });
});
