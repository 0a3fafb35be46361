import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, readTree, tempDir, writeIn } from './support/cli.js';

// Incremental compile: a second compile reuses the outputs of entry files whose files (and imports) did
// not change. Reuse is observed through a definition that throws when the time zone is not UTC: the cache
// does not track the time zone (V8 reads TZ itself, not through process.env), so if the file is not loaded
// again, the compile succeeds. Every scenario also compares with a compile that uses no cache.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-incremental-')));
afterEach(async () => cleanup());

const write = (file: string, text: string) => writeIn(dir, file, text);
const compile = (out = 'out', env: Record<string, string | undefined> = {}) =>
  runCli(['compile', 'defs/*.ts', '-o', out], { cwd: dir, env: { TZ: 'UTC', PIPEWRIGHT_NO_CACHE: undefined, ...env } });
/** Sets the trip wire: a time zone other than UTC. */
const TRIP = { TZ: 'Asia/Tokyo' };

const tree = (root: string) => readTree(join(dir, root));

/** The output of the same sources compiled from nothing, for comparison. */
async function fromScratch(): Promise<Record<string, string>> {
  await rm(join(dir, 'scratch'), { recursive: true, force: true });
  const result = await compile('scratch', { PIPEWRIGHT_NO_CACHE: '1' });
  expect(result.stderr).toBe('');
  const files = await tree('scratch');
  await rm(join(dir, 'scratch'), { recursive: true, force: true });
  return files;
}

const LIBRARY = (script: string) => `import { shell } from 'pipewright';
export const run = (id: string) => shell({ identifier: id, script: '${script}', timeout: '5m' });
`;
const PROJECT = (id: string) => `import { project } from 'pipewright';
export const web = project({ identifier: '${id}' });
`;
const pipelineFile = (id: string, name = id, trip = false) => `import { pipeline, stage } from 'pipewright';
import { web } from './project.js';
import { run } from '../lib/steps.js';
${trip ? "if (new Date(0).getTimezoneOffset() !== 0) throw new Error('loaded again');\n" : ''}export const ${id} = pipeline({ identifier: '${id}', name: '${name}', project: web })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }).step(run('a'), run('b')));
`;

beforeEach(async () => {
  await write('lib/steps.ts', LIBRARY('echo hi'));
  await write('defs/project.ts', PROJECT('web'));
  await write('defs/build.ts', pipelineFile('build', 'build', true));
  await write('defs/deploy.ts', pipelineFile('deploy'));
  expect((await compile()).code).toBe(0);
});

describe('a second compile', () => {
  it('does not load entry files that did not change', async () => {
    const before = await tree('out');
    const again = await compile('out', TRIP);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('compiled 3 documents to out: 0 written, 4 unchanged, 0 removed');
    expect((await runCli(['compile', 'defs/*.ts', '-o', 'out', '--check'], { cwd: dir, env: TRIP })).code).toBe(0);
    expect(await tree('out')).toEqual(before);
    // Without the cache the same compile loads build.ts, which throws: the test can tell the difference.
    expect((await compile('out', { ...TRIP, PIPEWRIGHT_NO_CACHE: '1' })).code).toBe(1);
  });

  it('rebuilds only the changed entry, and the result equals a compile from scratch', async () => {
    await write('defs/deploy.ts', pipelineFile('deploy', 'deploy now'));
    const result = await compile('out', TRIP);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('2 written');
    expect((await tree('out'))['pipelines/default/web/deploy.yaml']).toContain('name: deploy now');
    expect(await tree('out')).toEqual(await fromScratch());
  });

  it('rebuilds every entry that imports a changed library file', async () => {
    await write('lib/steps.ts', LIBRARY('echo changed'));
    expect((await compile('out', TRIP)).code).toBe(1);
    const result = await compile();
    expect(result.stdout).toContain('3 written');
    expect(await tree('out')).toEqual(await fromScratch());
  });

  it('follows a changed project into the pipelines that reference it', async () => {
    await write('defs/project.ts', PROJECT('shop'));
    expect((await compile()).code).toBe(0);
    const files = await tree('out');
    expect(Object.keys(files).sort()).toEqual([
      'manifest.json',
      'pipelines/default/shop/build.yaml',
      'pipelines/default/shop/deploy.yaml',
      'projects/default/shop.yaml',
    ]);
    expect(files).toEqual(await fromScratch());
  });

  it('writes the manifest again when only it was edited', async () => {
    await writeFile(
      join(dir, 'out/manifest.json'),
      (await readFile(join(dir, 'out/manifest.json'), 'utf8')).replace('"version": 1', '"version": 1 '),
    );
    const result = await compile('out', TRIP);
    expect(result.stdout).toContain('1 written');
    expect(await tree('out')).toEqual(await fromScratch());
  });

  it('drops the outputs of a deleted entry and restores an edited output file', async () => {
    await rm(join(dir, 'defs/deploy.ts'));
    await writeFile(join(dir, 'out/pipelines/default/web/build.yaml'), 'edited by hand\n');
    const result = await compile();
    expect(result.code).toBe(0);
    const files = await tree('out');
    expect(files['pipelines/default/web/deploy.yaml']).toBeUndefined();
    expect(files['pipelines/default/web/build.yaml']).toContain('identifier: build');
    expect(files).toEqual(await fromScratch());
  });

  it('restores an output edited by hand after a compile that recorded its stat', async () => {
    // The second compile reads and hashes each output and records its stat; the third trusts the stat.
    expect((await compile('out', TRIP)).code).toBe(0);
    const output = join(dir, 'out/pipelines/default/web/build.yaml');
    await writeFile(output, 'edited by hand\n');
    const result = await compile();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/[1-9]\d* written/);
    expect(await tree('out')).toEqual(await fromScratch());
  });

  it('does not read an output again while its size, inode and modification time are those recorded', async () => {
    const output = join(dir, 'out/pipelines/default/web/build.yaml');
    // Whole seconds, so that putting the time back below gives the very stat recorded.
    const recorded = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await utimes(output, recorded, recorded);
    expect((await compile('out', TRIP)).code).toBe(0);
    const text = await readFile(output, 'utf8');
    // Same length, same inode, the old time put back: only reading the file would tell (git's index trusts the same).
    await writeFile(output, text.replace('identifier: build', 'identifier: bUild'));
    await utimes(output, recorded, recorded);
    const third = await compile('out', TRIP);
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('0 written');
    expect(await readFile(output, 'utf8')).toContain('identifier: bUild');
    // Any other change of its stat and it is read, found changed and written again.
    await utimes(output, recorded, new Date(recorded.getTime() + 5000));
    const fourth = await compile();
    expect(fourth.stdout).toMatch(/[1-9]\d* written/);
    expect(await tree('out')).toEqual(await fromScratch());
  });

  it('still reports a new resource that duplicates a reused one, naming both', async () => {
    await write('defs/again.ts', pipelineFile('build').replace('export const build', 'export const again'));
    const result = await compile();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/defined twice/);
    expect(result.stderr).toMatch(/defs\/(build|again)\.ts/);
  });

  it('loads again only the entries a duplicate involves, not every entry', async () => {
    // defs/build.ts is reused and not involved: under the trip wire, loading it again would fail the compile.
    await write('defs/again.ts', pipelineFile('deploy').replace('export const deploy', 'export const again'));
    const result = await compile('out', TRIP);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('loaded again');
    // As a compile from nothing says it: defs/again.ts comes first, so the second definition is defs/deploy.ts's.
    expect(result.stderr).toMatch(/defs\/deploy\.ts:\d+:\d+ .*pipeline "deploy".* is defined twice/);
    expect(result.stderr).toMatch(/the other one is export "again" at defs\/again\.ts:\d+:\d+/);
  });

  it('still resolves references from a changed pipeline to a reused project', async () => {
    await write('defs/deploy.ts', pipelineFile('deploy', 'other'));
    const result = await compile('out', TRIP);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describe('what a definition reads', () => {
  // lib/team.ts reads TEAM, defs/team.ts reads REGION itself: both are part of defs/team.ts's cache key.
  const TEAM_LIBRARY = "export const team = process.env.TEAM ?? 'alpha';\n";
  const TEAM_PIPELINE = `import { pipeline, stage } from 'pipewright';
import { web } from './project.js';
import { run } from '../lib/steps.js';
import { team } from '../lib/team.js';
if (new Date(0).getTimezoneOffset() !== 0) throw new Error('loaded again');
export const teamed = pipeline({ identifier: 'teamed', project: web, tags: { team, region: process.env.REGION ?? 'eu' } })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }).step(run('a')));
`;
  const teamed = async () => (await tree('out'))['pipelines/default/web/teamed.yaml'];
  const check = (env: Record<string, string | undefined>) =>
    runCli(['compile', 'defs/*.ts', '-o', 'out', '--check'], { cwd: dir, env: { TZ: 'UTC', ...env } });

  it('makes environment variables read through process.env part of the cache key', async () => {
    await write('lib/team.ts', TEAM_LIBRARY);
    await write('defs/team.ts', TEAM_PIPELINE);
    expect((await compile('out', { TEAM: 'alpha', REGION: undefined })).code).toBe(0);
    expect(await teamed()).toContain('team: alpha');
    // The same environment: reused (the trip wire is not hit).
    expect(await compile('out', { ...TRIP, TEAM: 'alpha', REGION: undefined })).toMatchObject({ code: 0, stderr: '' });

    // Another value: --check is not fooled by the cache, and compile rebuilds the entry.
    const stale = await check({ TEAM: 'beta', REGION: undefined });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('  changed  pipelines/default/web/teamed.yaml');
    expect(stale.stderr).not.toContain('build.yaml');
    expect((await compile('out', { TEAM: 'beta', REGION: undefined })).code).toBe(0);
    expect(await teamed()).toContain('team: beta');
    expect(await check({ TEAM: 'beta', REGION: undefined })).toMatchObject({
      code: 0,
      stdout: 'out is up to date (4 documents)\n',
    });

    // A variable that was unset and now is set, read by the entry itself.
    expect((await check({ TEAM: 'beta', REGION: 'us' })).code).toBe(1);
    expect((await compile('out', { TEAM: 'beta', REGION: 'us' })).code).toBe(0);
    expect(await teamed()).toContain('region: us');
    // The same environment once more: nothing is loaded again.
    expect(await compile('out', { ...TRIP, TEAM: 'beta', REGION: 'us' })).toMatchObject({ code: 0, stderr: '' });
    expect(await tree('out')).toEqual(await fromScratchWith({ TEAM: 'beta', REGION: 'us' }));
  });

  it('never caches an entry that reads files through fs or lists the environment, and says so with --debug', async () => {
    await write('defs/notes.txt', 'first\n');
    await write(
      'defs/described.ts',
      `import { readFileSync } from 'node:fs';
import { pipeline, stage } from 'pipewright';
import { web } from './project.js';
import { run } from '../lib/steps.js';
export const described = pipeline({ identifier: 'described', project: web, description: readFileSync('defs/notes.txt', 'utf8').trim() })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }).step(run('a')));
`,
    );
    await write(
      'defs/counted.ts',
      `import { pipeline, stage } from 'pipewright';
import { web } from './project.js';
import { run } from '../lib/steps.js';
export const counted = pipeline({ identifier: 'counted', project: web, tags: { variables: String(Object.keys(process.env).length > 0) } })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }).step(run('a')));
`,
    );
    const first = await runCli(['--debug', 'compile', 'defs/*.ts', '-o', 'out'], { cwd: dir, env: { TZ: 'UTC' } });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(
      'pipewright: debug: not cached: defs/counted.ts, compiled every time: defs/counted.ts reads the environment as a whole (enumerates process.env)\n' +
        'pipewright: debug: not cached: defs/described.ts, compiled every time: defs/described.ts imports node:fs, which the cache cannot see into\n',
    );
    // Without --debug, nothing is said.
    expect((await compile()).stderr).toBe('');

    await write('defs/notes.txt', 'second\n');
    const stale = await check({});
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('  changed  pipelines/default/web/described.yaml');
    expect((await compile()).code).toBe(0);
    expect((await tree('out'))['pipelines/default/web/described.yaml']).toContain('description: second');
  });
});

/** fromScratch, with environment variables set. */
async function fromScratchWith(env: Record<string, string>): Promise<Record<string, string>> {
  await rm(join(dir, 'scratch'), { recursive: true, force: true });
  const result = await compile('scratch', { PIPEWRIGHT_NO_CACHE: '1', ...env });
  expect(result.stderr).toBe('');
  const files = await tree('scratch');
  await rm(join(dir, 'scratch'), { recursive: true, force: true });
  return files;
}

describe('incremental compile of kinds with a version or a parent', () => {
  it('resolves a reference to a reused template version (its manifest entry keeps the version)', async () => {
    const template = `import { shell, stage, template } from 'pipewright';
export const gate = template.stage({
  identifier: 'gate',
  versionLabel: 'v2',
  org: 'default',
  project: 'web',
  spec: stage({ identifier: 'gate', type: 'Custom' }).step(shell({ identifier: 'check', script: 'echo ok', timeout: '5m' })),
});
`;
    const pipeline = (name: string) => `import { pipeline, stageTemplate } from 'pipewright';
import { gate } from './gate.js';
export const ci = pipeline({ identifier: 'ci', name: '${name}', org: 'default', project: 'web' }).stage(stageTemplate({ identifier: 'gate', templateRef: gate }));
`;
    await write('defs/gate.ts', template);
    await write('defs/ci.ts', pipeline('ci'));
    const first = await compile();
    expect(first.code, first.stderr).toBe(0);
    // Only the pipeline changes: the template's output is reused from the cache, and the reference must still resolve.
    await write('defs/ci.ts', pipeline('ci two'));
    const second = await compile();
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(': 2 written'); // the pipeline and the manifest: the template was reused
    expect(await tree('out')).toEqual(await fromScratch());
  });
});

describe('incremental compile of an input set and its pipeline', () => {
  it('checks a changed input set against its reused pipeline, as a compile from nothing does', async () => {
    await write(
      'defs/deploy.ts',
      `import { input, pipeline, shell, stage } from 'pipewright';
export const deploy = pipeline({ identifier: 'deploy', org: 'default', project: 'web', variables: { env: input(), team: 'core' } })
  .stage(stage({ identifier: 's', type: 'Custom' }).step(shell({ identifier: 'hi', script: 'echo hi', timeout: '5m' })));
`,
    );
    const values = (extra: string) => `import { inputSet } from 'pipewright';
import { deploy } from './deploy.js';
export const prod = inputSet({ identifier: 'prod', pipeline: deploy, values: { variables: [{ name: 'env', type: 'String', value: 'prod' }${extra}] } });
`;
    await write('defs/prod.ts', values(''));
    const first = await compile();
    expect(first.code, first.stderr).toBe(0);
    // Only the input set changes, to set a field the pipeline fixes: the pipeline's output is reused.
    await write('defs/prod.ts', values(", { name: 'team', type: 'String', value: 'other' }"));
    const second = await compile();
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /defs\/prod\.ts:\d+:\d+ .*is not a runtime input of pipeline "deploy" \[error input-set-not-an-input\]/,
    );
    const scratch = await compile('scratch', { PIPEWRIGHT_NO_CACHE: '1' });
    expect(second.stderr).toBe(scratch.stderr);
  });

  const tripping = `import { input, pipeline, shell, stage } from 'pipewright';
if (new Date(0).getTimezoneOffset() !== 0) throw new Error('loaded again');
export const deploy = pipeline({ identifier: 'deploy', org: 'default', project: 'web', variables: { env: input(), team: 'core' } })
  .stage(stage({ identifier: 's', type: 'Custom' }).step(shell({ identifier: 'hi', script: 'echo hi', timeout: '5m' })));
`;
  const named = (extra: string) => `import { inputSet } from 'pipewright';
export const prod = inputSet({ identifier: 'prod', pipeline: 'deploy', org: 'default', project: 'web', values: { variables: [{ name: 'env', type: 'String', value: 'prod' }${extra}] } });
`;

  it('checks a changed input set against the runtime inputs the cache kept of its pipeline, without loading the pipeline again', async () => {
    await write('defs/deploy.ts', tripping);
    await write('defs/prod.ts', named(''));
    expect((await compile()).code).toBe(0);
    // Under the trip wire, loading defs/deploy.ts again would fail the compile: the input set still fits.
    await write('defs/prod.ts', named('').replace("value: 'prod'", "value: 'staging'"));
    const second = await compile('out', TRIP);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(await tree('out')).toEqual(await fromScratch());
  });

  it('builds a pipeline again with a new input set when the cache kept no runtime inputs of it', async () => {
    await write('defs/deploy.ts', tripping);
    expect((await compile()).code).toBe(0);
    // No input set filled the pipeline in the first compile: its inputs are not known until it is built again.
    await write('defs/prod.ts', named(", { name: 'team', type: 'String', value: 'other' }"));
    expect((await compile('out', TRIP)).stderr).toContain('loaded again');
    const second = await compile();
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /defs\/prod\.ts:\d+:\d+ .*is not a runtime input of pipeline "deploy" \[error input-set-not-an-input\]/,
    );
    expect(second.stderr).toBe((await compile('scratch', { PIPEWRIGHT_NO_CACHE: '1' })).stderr);
  });
});

describe('a watch session (what compile --watch keeps between compiles)', () => {
  // The built library, as the CLI runs it: definitions import `pipewright`, which resolves to dist/ (npm test builds first).
  const built = async () => {
    const cache = (await import(
      `${'../dist/compile/compile-cache.js'}`
    )) as typeof import('../src/compile/compile-cache.js');
    const { compile } = (await import(`${'../dist/compile/compile.js'}`)) as typeof import('../src/compile/compile.js');
    return { CompileSession: cache.CompileSession, compileLibrary: compile };
  };

  it('reads a file again in the next compile when it changed, even to the same size, and once within a compile', async () => {
    const { CompileSession } = await built();
    const session = new CompileSession();
    const file = join(dir, 'note.txt');
    await writeFile(file, 'one');
    session.begin();
    expect(session.read(file)?.text).toBe('one');
    await writeFile(file, 'two');
    // Within one compile a file is read once (a compile reads each output twice: to reuse it, then to compare).
    expect(session.read(file)?.text).toBe('one');
    session.begin();
    expect(session.read(file)?.text).toBe('two');
    expect(session.read(file)?.sha256).toMatch(/^[0-9a-f]{64}$/);
    await rm(file);
    session.begin();
    expect(session.read(file)).toBeUndefined();
  });

  it('compiles again what changed, restores an output edited by hand, and agrees with a compile from nothing', async () => {
    const { CompileSession, compileLibrary } = await built();
    const session = new CompileSession();
    const here = process.cwd();
    process.chdir(dir);
    try {
      const run = () => compileLibrary({ entries: ['defs/*.ts'], outDir: 'out', session });
      expect((await run()).changes.written).toEqual([]);
      await write('defs/deploy.ts', pipelineFile('deploy', 'renamed'));
      const renamed = await run();
      expect(renamed.changes.changed).toEqual(['manifest.json', 'pipelines/default/web/deploy.yaml']);
      expect(renamed.documents.filter((d) => !d.reused).map((d) => d.file)).toEqual(['defs/deploy.ts']);
      // The same number of bytes, other content: the session must not take its remembered text for it.
      const edited = (await tree('out'))['pipelines/default/web/build.yaml']!.replace('build', 'bUild');
      await writeFile(join(dir, 'out/pipelines/default/web/build.yaml'), edited);
      const restored = await run();
      expect(restored.changes.changed).toEqual(['pipelines/default/web/build.yaml']);
      expect(restored.inputs).toContain(join(dir, 'lib/steps.ts'));
    } finally {
      process.chdir(here);
    }
    expect(await tree('out')).toEqual(await fromScratch());
  });
});
