import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DiagnosticError } from '../src/core/diagnostics.js';
import { loadModules } from '../src/compile/load-modules.js';
import { planBatches } from '../src/compile/worker-pool.js';
import { readTree, runCli, tempDir, writeIn } from './support/cli.js';

// Large compiles run in worker threads, a batch of entry files each (src/compile/worker-pool.ts).
// PIPEWRIGHT_BATCH_SIZE forces small batches, so a dozen files take that path; every scenario is compared
// with the same compile in one thread (PIPEWRIGHT_BATCH_SIZE=0): output, messages and exit code must match.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-parallel-')));
afterEach(async () => cleanup());

const write = (file: string, text: string) => writeIn(dir, file, text);

// The library is evaluated once per bundle, so it logs the thread of every batch.
const LIBRARY = `import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { shell } from 'pipewright';
if (process.env.THREAD_LOG) appendFileSync(process.env.THREAD_LOG, threadId + '\\n');
export const run = (id: string) => shell({ identifier: id, script: 'echo ' + id, timeout: '5m' });
`;
const PROJECT = `import { project } from 'pipewright';
export const web = project({ identifier: 'web', org: 'default' });
`;
const pipelineFile = (id: string, extra = '') => `import { pipeline, stage } from 'pipewright';
import { web } from './a-project.js';
import { run } from '../lib/steps.js';
${extra}export const ${id} = pipeline({ identifier: '${id}', name: '${id}', project: web })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }).step(run('a'), run('b')));
`;
const PIPELINES = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9'];

beforeEach(async () => {
  await write('lib/steps.ts', LIBRARY);
  await write('defs/a-project.ts', PROJECT);
  for (const id of PIPELINES) await write(`defs/${id}.ts`, pipelineFile(id));
});

const compile = (batchSize: number, out: string, env: Record<string, string> = {}) =>
  runCli(['compile', 'defs/*.ts', '-o', out], {
    cwd: dir,
    env: { PIPEWRIGHT_BATCH_SIZE: String(batchSize), PIPEWRIGHT_NO_CACHE: '1', ...env },
  });

const threadsLogged = async (log: string) => (await readFile(join(dir, log), 'utf8')).trim().split('\n');

/** The same compile in one thread and in batches of 3: both results, which must agree. */
async function bothWays() {
  const one = await compile(0, 'out-one');
  const many = await compile(3, 'out-many');
  expect(many.code).toBe(one.code);
  expect(many.stderr.replaceAll('out-many', 'out-one')).toBe(one.stderr);
  expect(many.stdout.replaceAll('out-many', 'out-one')).toBe(one.stdout);
  return { one, many };
}

describe('loading bundles at once in one process', () => {
  // Worker threads share the process id; two that bundled in the same millisecond once wrote and imported one
  // file, and the batch of two read the other's three modules (a flaky "to" argument must be a string).
  it('gives each bundle a file of its own, even when the clock stands still', async () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      const sets = [
        ['one/a.ts', 'one/b.ts', 'one/c.ts'],
        ['two/a.ts', 'two/b.ts'],
      ];
      for (const set of sets)
        for (const file of set) await write(file, `export const from = ${JSON.stringify(file)};\n`);
      const loaded = await Promise.all(sets.map((set) => loadModules(set.map((file) => join(dir, file)))));
      expect(loaded.map((modules) => modules.map((m) => m.exports.from))).toEqual(sets);
    } finally {
      now.mockRestore();
    }
  });
});

describe('compile in worker threads', () => {
  it('runs each batch in a worker thread of its own and writes exactly what one thread writes', async () => {
    const one = await compile(0, 'out-one', { THREAD_LOG: join(dir, 'one.log') });
    const many = await compile(3, 'out-many', { THREAD_LOG: join(dir, 'many.log') });
    expect([one.code, many.code]).toEqual([0, 0]);
    expect(many.stdout).toBe('compiled 10 documents to out-many: 11 written, 0 unchanged, 0 removed\n');
    expect(await readTree(join(dir, 'out-many'))).toEqual(await readTree(join(dir, 'out-one')));
    expect(await threadsLogged('one.log')).toEqual(['0']);
    // 10 entry files in batches of 3: four batches, four threads, none of them the main thread.
    const threads = await threadsLogged('many.log');
    expect(threads).toHaveLength(4);
    expect(new Set(threads).size).toBe(4);
    expect(threads).not.toContain('0');
  });

  it('resolves a reference to a resource built in another batch', async () => {
    // defs/a-project.ts is in the first batch; p9 (which references it) is in the last.
    const { many } = await bothWays();
    expect(many.code).toBe(0);
    expect(await readFile(join(dir, 'out-many/pipelines/default/web/p9.yaml'), 'utf8')).toContain(
      'projectIdentifier: web',
    );
  });

  it('reports invalid documents of several batches with their locations, as one thread does', async () => {
    for (const id of ['p2', 'p8'])
      await write(
        `defs/${id}.ts`,
        pipelineFile(id)
          .replace("run('b')", "shell({ identifier: 'late', script: 'x', timeout: '10x' as '10m' })")
          .replace('import { pipeline, stage }', 'import { pipeline, shell, stage }'),
      );
    const { many } = await bothWays();
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(/defs\/p2\.ts:\d+:\d+ .*timeout/);
    expect(many.stderr).toMatch(/defs\/p8\.ts:\d+:\d+ .*timeout/);
    expect(many.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
  });

  it('reports a syntax error in a library every batch imports once, not once per batch', async () => {
    await write('lib/steps.ts', LIBRARY.replace("'echo ' + id", "'echo ' + + "));
    const { many } = await bothWays();
    expect(many.code).toBe(1);
    expect(many.stderr.match(/lib\/steps\.ts:\d+:\d+/g)).toHaveLength(1);
  });

  it('reports a definition that throws, at its line', async () => {
    await write('defs/p5.ts', pipelineFile('p5', "if (true) throw new Error('no config for p5');\n"));
    const { many } = await bothWays();
    expect(many.code).toBe(1);
    expect(many.stderr).toContain('defs/p5.ts:4:');
    expect(many.stderr).toContain('no config for p5');
  });

  it('reports one identity defined in two batches with both locations', async () => {
    await write('defs/p9.ts', pipelineFile('p9').replace("identifier: 'p9'", "identifier: 'p1'"));
    const { many } = await bothWays();
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(/pipeline "p1".* is defined twice/);
    expect(many.stderr).toMatch(/the other one is export "p1" at defs\/p1\.ts:\d+:\d+/);
  });

  it('checks an input set against its pipeline built in another batch, as one thread does', async () => {
    // p1 takes its variable as a runtime input; z-values.ts (the last batch) fills it, and then also a fixed field.
    await write(
      'defs/p1.ts',
      pipelineFile('p1')
        .replace('project: web })', "project: web, variables: { env: input(), team: 'core' } })")
        .replace('import { pipeline, stage }', 'import { input, pipeline, stage }'),
    );
    const values = (extra: string) => `import { inputSet } from 'pipewright';
import { p1 } from './p1.js';
export const prod = inputSet({ identifier: 'prod', pipeline: p1, values: { variables: [{ name: 'env', type: 'String', value: 'prod' }${extra}] } });
`;
    await write('defs/z-values.ts', values(''));
    const fits = await bothWays();
    expect(fits.many.code, fits.many.stderr).toBe(0);
    await write('defs/z-values.ts', values(", { name: 'team', type: 'String', value: 'other' }"));
    const { many } = await bothWays();
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(
      /defs\/z-values\.ts:\d+:\d+ .*is not a runtime input of pipeline "p1" \[error input-set-not-an-input\]/,
    );
  });

  it('counts a resource re-exported by an entry of another batch once', async () => {
    await write('defs/z-index.ts', "export { p1 } from './p1.js';\n");
    const { many } = await bothWays();
    expect(many.code).toBe(0);
    expect(await readTree(join(dir, 'out-many'))).toEqual(await readTree(join(dir, 'out-one')));
    const manifest = JSON.parse(await readFile(join(dir, 'out-many/manifest.json'), 'utf8')) as {
      files: Array<{ identifier: string; source: string }>;
    };
    expect(manifest.files.filter((f) => f.identifier === 'p1')).toEqual([
      expect.objectContaining({ source: 'defs/p1.ts' }),
    ]);
  });

  it('loads more entry files than a chunk holds (16) in one thread as batches do: a re-export counted once, a throw at its line', async () => {
    const more = Array.from({ length: 30 }, (_, i) => `q${String(i).padStart(2, '0')}`);
    for (const id of more) await write(`defs/${id}.ts`, pipelineFile(id));
    // defs/z-index.ts comes last, in the second chunk; p1 is in the first.
    await write('defs/z-index.ts', "export { p1 } from './p1.js';\n");
    const { many } = await bothWays();
    expect(many.code, many.stderr).toBe(0);
    expect(many.stdout).toContain('compiled 40 documents');
    const manifest = JSON.parse(await readFile(join(dir, 'out-one/manifest.json'), 'utf8')) as {
      files: Array<{ identifier: string; source: string }>;
    };
    expect(manifest.files.filter((f) => f.identifier === 'p1')).toEqual([
      expect.objectContaining({ source: 'defs/p1.ts' }),
    ]);
    await write('defs/q25.ts', pipelineFile('q25', "if (true) throw new Error('no config for q25');\n"));
    const thrown = await bothWays();
    expect(thrown.one.code).toBe(1);
    expect(thrown.one.stderr).toContain('defs/q25.ts:4:');
    expect(thrown.one.stderr).toContain('no config for q25');
  });

  it('builds again, with call sites, only the entries that have something to say, and says it at the builder call', async () => {
    // Each entry logs its evaluation; p4 holds a likely secret (a warning), so it is the only one evaluated twice.
    const logged = (id: string) =>
      `import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.EVAL_LOG!, '${id}\\n');\n`;
    for (const id of PIPELINES) await write(`defs/${id}.ts`, pipelineFile(id, logged(id)));
    await write(
      'defs/p4.ts',
      pipelineFile('p4', logged('p4'))
        .replace(
          "run('b')",
          "shell({ identifier: 'leak', script: 'export AWS_ACCESS_KEY_ID=AKIA' + 'ABCDEFGHIJKLMNOP', timeout: '5m' })",
        )
        .replace('import { pipeline, stage }', 'import { pipeline, shell, stage }'),
    );
    const result = await compile(0, 'out', { EVAL_LOG: join(dir, 'eval.log') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/defs\/p4\.ts:\d+:\d+ .*\[warning possible-secret\]/);
    const evaluations = await threadsLogged('eval.log');
    expect(evaluations.filter((id) => id === 'p4')).toHaveLength(2);
    expect(evaluations.filter((id) => id !== 'p4').sort()).toEqual(PIPELINES.filter((id) => id !== 'p4'));
  });

  it('reports a reference to a resource that is not compiled', async () => {
    await write('defs/p4.ts', pipelineFile('p4').replace("from './a-project.js'", "from '../lib/other-project.js'"));
    await write('lib/other-project.ts', PROJECT.replace("'web'", "'elsewhere'"));
    const { many } = await bothWays();
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(/defs\/p4\.ts:\d+:\d+ .*references project "elsewhere"/);
  });

  it('fails with a message when a definition ends its worker, and leaves the output folder alone', async () => {
    expect((await compile(3, 'out')).code).toBe(0);
    const before = await readTree(join(dir, 'out'));
    await write('defs/p6.ts', pipelineFile('p6', 'process.exit(3);\n'));
    const result = await compile(3, 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a definition ended its worker thread (exit code 3) before its batch was compiled');
    expect(result.stderr).toContain('defs/p6.ts (or one of the 2 entry files after it, or what they import)');
    expect(result.stderr).toContain('remove the process.exit call');
    expect(result.stderr).not.toContain('unexpected error');
    expect(await readTree(join(dir, 'out'))).toEqual(before);
  });

  it('rebuilds only the changed entry after a compile in batches, and the result equals a compile from scratch', async () => {
    // A library importing node: modules is never cached (test/incremental.test.ts), so this one is pure;
    // reuse shows as p1 not being loaded again although it throws outside UTC (the cache does not track the
    // time zone; it does track process.env, so an environment variable cannot be the trip wire).
    await write(
      'lib/steps.ts',
      LIBRARY.split('\n')
        .slice(2)
        .filter((line) => !line.includes('THREAD_LOG'))
        .join('\n'),
    );
    await write(
      'defs/p1.ts',
      pipelineFile('p1', "if (new Date(0).getTimezoneOffset() !== 0) throw new Error('loaded again');\n"),
    );
    const env = { PIPEWRIGHT_NO_CACHE: '', TZ: 'UTC' };
    expect((await compile(3, 'out', env)).code).toBe(0);
    await write('defs/p3.ts', pipelineFile('p3').replace("name: 'p3'", "name: 'p3 renamed'"));
    const second = await compile(3, 'out', { ...env, TZ: 'Asia/Tokyo' });
    expect(second.stderr).toBe('');
    expect(second.stdout).toBe('compiled 10 documents to out: 2 written, 9 unchanged, 0 removed\n');
    expect((await compile(0, 'scratch')).code).toBe(0);
    expect(await readTree(join(dir, 'out'))).toEqual(await readTree(join(dir, 'scratch')));
  });

  it('keeps batch texts in a spool beside the output only while it compiles: none is left after a write, a --check or a failure', async () => {
    const leftovers = async () => (await readdir(dir)).filter((name) => name.includes('pipewright-'));
    expect((await compile(3, 'out')).code).toBe(0);
    expect(await readTree(join(dir, 'out'))).toEqual(
      await (async () => (await compile(0, 'one'), readTree(join(dir, 'one'))))(),
    );
    await write('defs/p3.ts', pipelineFile('p3').replace("name: 'p3'", "name: 'p3 renamed'"));
    const check = await runCli(['compile', 'defs/*.ts', '-o', 'out', '--check'], {
      cwd: dir,
      env: { PIPEWRIGHT_BATCH_SIZE: '3', PIPEWRIGHT_NO_CACHE: '1' },
    });
    expect(check.code).toBe(1);
    expect(check.stdout + check.stderr).toContain('pipelines/default/web/p3.yaml');
    await write('defs/p8.ts', pipelineFile('p8').replace("identifier: 'p8'", "identifier: 'p1'"));
    expect((await compile(3, 'out')).code).toBe(1);
    expect(await leftovers()).toEqual([]);
  });

  it('refuses a PIPEWRIGHT_BATCH_SIZE that is not a whole number, saying what to set', async () => {
    const result = await runCli(['compile', 'defs/*.ts', '-o', 'out'], {
      cwd: dir,
      env: { PIPEWRIGHT_BATCH_SIZE: 'many' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PIPEWRIGHT_BATCH_SIZE is "many", not a whole number');
    expect(result.stderr).toContain('0 to compile in one thread');
    expect(result.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
  });
});

describe('planBatches', () => {
  const files = (n: number) => Array.from({ length: n }, (_, i) => `p${i}.ts`);
  const sizes = (batches: string[][] | undefined) => batches?.map((b) => b.length);

  it('keeps fewer than 2000 entry files in one thread on two cores, fewer than 1000 on more', () => {
    expect(planBatches(files(1999), {}, 2)).toBeUndefined();
    expect(sizes(planBatches(files(2000), {}, 2))).toEqual([1000, 1000]);
    expect(planBatches(files(999), {}, 4)).toBeUndefined();
    expect(sizes(planBatches(files(1000), {}, 4))).toEqual([250, 250, 250, 250]);
  });

  it('makes batches of about 800 files, a whole number of rounds of the lanes', () => {
    expect(sizes(planBatches(files(2001), {}, 2))).toEqual([1001, 1000]);
    expect(sizes(planBatches(files(2500), {}, 2))).toEqual([625, 625, 625, 625]);
    expect(sizes(planBatches(files(5001), {}, 2))).toEqual([834, 834, 834, 833, 833, 833]);
    expect(sizes(planBatches(files(3000), {}, 4))).toEqual(Array(4).fill(750));
  });

  it('follows PIPEWRIGHT_BATCH_SIZE: a size, or 0 for one thread', () => {
    expect(sizes(planBatches(files(7), { PIPEWRIGHT_BATCH_SIZE: '3' }, 2))).toEqual([3, 3, 1]);
    expect(planBatches(files(5000), { PIPEWRIGHT_BATCH_SIZE: '0' }, 2)).toBeUndefined();
    expect(() => planBatches(files(7), { PIPEWRIGHT_BATCH_SIZE: '-1' }, 2)).toThrow(DiagnosticError);
  });
});
