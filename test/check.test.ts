import { lstat, mkdir, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-check-')));
afterEach(async () => cleanup());

const write = (file: string, text: string) => writeIn(dir, file, text);
const compile = (...args: string[]) => runCli(['compile', 'defs/*.ts', '-o', 'out', ...args], { cwd: dir });

/** Every file under out/ with its content and inode: "untouched" means both stay the same. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const out: Record<string, string> = {};
  for (const e of entries.filter((x) => x.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(e.parentPath, e.name);
    out[relative(root, path)] = `${(await stat(path)).ino}:${await readFile(path, 'utf8')}`;
  }
  return out;
}

const PROJECT = `import { project } from 'pipewright';
export const web = project({ identifier: 'web' });
`;
const pipelineFile = (id: string, script = 'echo hi') => `import { pipeline, shell, stage } from 'pipewright';
import { web } from './project.js';
export const ${id} = pipeline({ identifier: '${id}', project: web })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }))
  .step(shell({ identifier: 'run', script: '${script}', timeout: '5m' }));
`;

beforeEach(async () => {
  await write('defs/project.ts', PROJECT);
  await write('defs/build.ts', pipelineFile('build'));
  await write('defs/deploy.ts', pipelineFile('deploy'));
});

describe('pipewright compile --check', () => {
  it('exits 0 and writes nothing when the output is up to date', async () => {
    expect((await compile()).code).toBe(0);
    const before = await snapshot(join(dir, 'out'));
    const result = await compile('--check');
    expect(result).toEqual({ code: 0, stdout: 'out is up to date (3 documents)\n', stderr: '' });
    expect(await snapshot(join(dir, 'out'))).toEqual(before);
  });

  it('exits 1 when the output folder does not exist yet, listing every file as added', async () => {
    const result = await compile('--check');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'out is out of date: 4 files differ (0 changed, 4 added, 0 orphaned)\n' +
        '  added    manifest.json\n' +
        '  added    pipelines/default/web/build.yaml\n' +
        '  added    pipelines/default/web/deploy.yaml\n' +
        '  added    projects/default/web.yaml\n' +
        'run pipewright compile to update it\n',
    );
    expect(await readdir(dir)).not.toContain('out');
  });

  it('lists changed, added and orphaned files, and exits 1 without writing', async () => {
    expect((await compile()).code).toBe(0);
    const before = await snapshot(join(dir, 'out'));
    await write('defs/build.ts', pipelineFile('build', 'echo changed'));
    await rm(join(dir, 'defs/deploy.ts'));
    await write('defs/test.ts', pipelineFile('test'));
    const result = await compile('--check');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'out is out of date: 4 files differ (2 changed, 1 added, 1 orphaned)\n' +
        '  changed  manifest.json\n' +
        '  changed  pipelines/default/web/build.yaml\n' +
        '  added    pipelines/default/web/test.yaml\n' +
        '  orphan   pipelines/default/web/deploy.yaml  (its source defs/deploy.ts no longer exists; compile removes it)\n' +
        'run pipewright compile to update it\n',
    );
    expect(await snapshot(join(dir, 'out'))).toEqual(before);
  });

  it('reports a generated file edited by hand as changed', async () => {
    expect((await compile()).code).toBe(0);
    await writeFile(join(dir, 'out/pipelines/default/web/build.yaml'), 'pipeline: {}\n');
    const result = await compile('--check');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(1 changed, 0 added, 0 orphaned)\n  changed  pipelines/default/web/build.yaml\n');
  });

  it('gives the same summary as JSON with --json', async () => {
    expect((await compile()).code).toBe(0);
    await rm(join(dir, 'defs/deploy.ts'));
    const result = await compile('--check', '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      ok: false,
      check: true,
      outDir: 'out',
      documents: 2,
      diagnostics: [],
      changes: { added: [], changed: ['manifest.json'], removed: ['pipelines/default/web/deploy.yaml'] },
    });
  });

  it('ignores files it did not generate', async () => {
    expect((await compile()).code).toBe(0);
    await writeFile(join(dir, 'out/NOTES.md'), 'mine\n');
    expect(await compile('--check')).toMatchObject({ code: 0, stdout: 'out is up to date (3 documents)\n' });
  });
});

describe('orphans and files compile does not own', () => {
  it('removes orphans on a normal compile and leaves every other file, symlink and empty folder as it was', async () => {
    expect((await compile()).code).toBe(0);
    await write('out/NOTES.md', 'mine\n');
    await write('out/pipelines/default/web/custom.yaml', 'hand: written\n');
    await mkdir(join(dir, 'out/keep-empty'));
    await symlink('NOTES.md', join(dir, 'out/notes-link'));
    const mine = await snapshot(join(dir, 'out'));

    await rm(join(dir, 'defs/deploy.ts'));
    const result = await compile();
    expect(result).toMatchObject({
      code: 0,
      stdout:
        'compiled 2 documents to out: 1 written, 2 unchanged, 1 removed\n  removed  pipelines/default/web/deploy.yaml  (its source defs/deploy.ts no longer exists)\n',
    });

    const after = await snapshot(join(dir, 'out'));
    expect(Object.keys(after).sort()).toEqual([
      'NOTES.md',
      'manifest.json',
      'pipelines/default/web/build.yaml',
      'pipelines/default/web/custom.yaml',
      'projects/default/web.yaml',
    ]);
    // Same content and same inode: carried over, not rewritten.
    for (const file of ['NOTES.md', 'pipelines/default/web/custom.yaml', 'pipelines/default/web/build.yaml'])
      expect(after[file], file).toBe(mine[file]);
    expect(await readlink(join(dir, 'out/notes-link'))).toBe('NOTES.md');
    expect((await lstat(join(dir, 'out/keep-empty'))).isDirectory()).toBe(true);
    const manifest = JSON.parse(await readFile(join(dir, 'out/manifest.json'), 'utf8'));
    expect(manifest.files.map((f: { file: string }) => f.file)).toEqual([
      'projects/default/web.yaml',
      'pipelines/default/web/build.yaml',
    ]);
  });

  it('does not remove a file that only looks generated when no manifest lists it', async () => {
    await write('out/pipelines/default/web/old.yaml', 'pipeline: {}\n');
    expect((await compile()).code).toBe(0);
    expect(await readFile(join(dir, 'out/pipelines/default/web/old.yaml'), 'utf8')).toBe('pipeline: {}\n');
    expect(await compile('--check')).toMatchObject({ code: 0 });
  });

  it('refuses to overwrite a manifest.json it did not write', async () => {
    await write('out/manifest.json', '{"name":"something else"}\n');
    for (const args of [[], ['--check']]) {
      const result = await compile(...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'out/manifest.json exists and was not written by pipewright; compiling would overwrite it [error foreign-manifest]',
      );
      expect(result.stderr).toContain('hint: choose another output folder with -o');
    }
    expect(await readFile(join(dir, 'out/manifest.json'), 'utf8')).toBe('{"name":"something else"}\n');
  });

  it('refuses an output folder that holds the definitions', async () => {
    const result = await runCli(['compile', 'defs/*.ts', '-o', 'defs'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('output folder "defs" contains defs/build.ts [error unsafe-out-dir]');
    expect((await readdir(join(dir, 'defs'))).sort()).toEqual(['build.ts', 'deploy.ts', 'project.ts']);
    const here = await runCli(['compile', 'defs/*.ts', '-o', '.'], { cwd: dir });
    expect(here.code).toBe(1);
    expect(here.stderr).toContain('[error unsafe-out-dir]');
  });
});
