import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';

// A compile of some files (named on the command line) prunes only what those files no longer make, and what
// deleted files made; a compile of the config's include prunes everything stale, as before.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-subset-'));
  await write(
    'pipewright.config.ts',
    `import { defineConfig } from 'pipewright';\nexport default defineConfig({ include: ['defs/*.ts'], outDir: 'out' });\n`,
  );
  await write(
    'defs/project.ts',
    `import { project } from 'pipewright';\nexport const web = project({ identifier: 'web' });\n`,
  );
  await write('defs/build.ts', pipelineFile('build'));
  await write('defs/terraform.ts', pipelineFile('terraform') + pipelineFile('plan').replace(/^import.*\n/gm, ''));
});
afterEach(async () => cleanup());

const write = (file: string, text: string) => writeIn(dir, file, text);
const compile = (...args: string[]) => runCli(['compile', ...args], { cwd: dir });

function pipelineFile(id: string, script = 'echo hi'): string {
  return `import { pipeline, shell, stage } from 'pipewright';
import { web } from './project.js';
export const ${id} = pipeline({ identifier: '${id}', project: web })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }))
  .step(shell({ identifier: 'run', script: '${script}', timeout: '5m' }));
`;
}

interface ManifestEntry {
  file: string;
  source: string;
  sha256: string;
}
const manifest = async () =>
  (JSON.parse(await readFile(join(dir, 'out/manifest.json'), 'utf8')) as { files: ManifestEntry[] }).files;

/** Every file under out/ with its inode and content: kept means both stay. */
async function tree(): Promise<Record<string, string>> {
  const root = join(dir, 'out');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const out: Record<string, string> = {};
  for (const e of entries.filter((x) => x.isFile())) {
    const path = join(e.parentPath, e.name);
    out[relative(root, path)] = `${(await stat(path)).ino}:${await readFile(path, 'utf8')}`;
  }
  return out;
}

const BUILD = 'pipelines/default/web/build.yaml';
const TERRAFORM = 'pipelines/default/web/terraform.yaml';
const PLAN = 'pipelines/default/web/plan.yaml';
const PROJECT = 'projects/default/web.yaml';

describe('compile of some files', () => {
  it("keeps the other files' outputs, untouched and in the manifest with their sources", async () => {
    expect(await compile()).toMatchObject({
      code: 0,
      stdout: 'compiled 4 documents to out: 5 written, 0 unchanged, 0 removed\n',
    });
    const before = await tree();

    await write(
      'defs/terraform.ts',
      pipelineFile('terraform', 'terraform apply') + pipelineFile('plan').replace(/^import.*\n/gm, ''),
    );
    const result = await compile('defs/terraform.ts');
    expect(result).toEqual({
      code: 0,
      stdout:
        'compiled 2 documents to out: 2 written, 1 unchanged, 0 removed; 2 kept (from sources not compiled in this run)\n',
      stderr: '',
    });
    const after = await tree();
    for (const file of [BUILD, PROJECT]) expect(after[file], file).toBe(before[file]);
    expect(after[TERRAFORM]).toContain('terraform apply');
    expect((await manifest()).map((e) => [e.file, e.source])).toEqual([
      [PROJECT, 'defs/project.ts'],
      [BUILD, 'defs/build.ts'],
      [PLAN, 'defs/terraform.ts'],
      [TERRAFORM, 'defs/terraform.ts'],
    ]);
    // The manifest is what a compile of the whole project writes: that one changes nothing.
    expect(await compile('--check')).toMatchObject({ code: 0, stdout: 'out is up to date (4 documents)\n' });
    expect(await compile()).toMatchObject({
      code: 0,
      stdout: 'compiled 4 documents to out: 0 written, 5 unchanged, 0 removed\n',
    });
  });

  it('removes what the compiled file no longer exports, and says so', async () => {
    expect((await compile()).code).toBe(0);
    await write('defs/terraform.ts', pipelineFile('terraform'));
    const check = await compile('defs/terraform.ts', '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      'out is out of date: 2 files differ (1 changed, 0 added, 1 orphaned)\n' +
        '  changed  manifest.json\n' +
        `  orphan   ${PLAN}  (defs/terraform.ts no longer exports it; compile removes it)\n` +
        'run pipewright compile to update it\n',
    );
    const result = await compile('defs/terraform.ts');
    expect(result.stdout).toBe(
      'compiled 1 document to out: 1 written, 1 unchanged, 1 removed; 2 kept (from sources not compiled in this run)\n' +
        `  removed  ${PLAN}  (defs/terraform.ts no longer exports it)\n`,
    );
    expect(Object.keys(await tree()).sort()).toEqual(['manifest.json', BUILD, TERRAFORM, PROJECT].sort());
    expect(await compile('defs/terraform.ts', '--check')).toMatchObject({
      code: 0,
      stdout: 'out is up to date (1 document)\n',
    });
  });

  it('removes the outputs of a deleted file, even when another file is compiled', async () => {
    expect((await compile()).code).toBe(0);
    await rm(join(dir, 'defs/build.ts'));
    const result = await compile('defs/terraform.ts');
    expect(result.stdout).toBe(
      'compiled 2 documents to out: 1 written, 2 unchanged, 1 removed; 1 kept (from sources not compiled in this run)\n' +
        `  removed  ${BUILD}  (its source defs/build.ts no longer exists)\n`,
    );
    expect((await manifest()).map((e) => e.file)).toEqual([PROJECT, PLAN, TERRAFORM]);
  });

  it('resolves references to resources it keeps, but not to ones that were never compiled', async () => {
    // Nothing compiled yet: the project terraform.ts refers to is neither compiled now nor kept from before.
    const alone = await compile('defs/terraform.ts');
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain(
      'references project "web" in org default, which is not among the compiled resources [error unresolved-reference]',
    );
    expect(await compile('defs/project.ts')).toMatchObject({
      code: 0,
      stdout: 'compiled 1 document to out: 2 written, 0 unchanged, 0 removed\n',
    });
    expect(await compile('defs/terraform.ts')).toMatchObject({
      code: 0,
      stdout:
        'compiled 2 documents to out: 3 written, 0 unchanged, 0 removed; 1 kept (from sources not compiled in this run)\n',
    });
  });

  it('with --json: the removals with their reasons, and what was kept', async () => {
    expect((await compile()).code).toBe(0);
    await write('defs/terraform.ts', pipelineFile('terraform'));
    const result = await compile('defs/terraform.ts', '--json');
    expect(JSON.parse(result.stdout).changes).toEqual({
      written: ['manifest.json'],
      added: [],
      changed: ['manifest.json'],
      unchanged: [TERRAFORM],
      removed: [PLAN],
      removals: [{ file: PLAN, source: 'defs/terraform.ts', reason: 'no-longer-exported' }],
      kept: [BUILD, PROJECT],
    });
  });
});

describe('compile of the whole project', () => {
  it('prunes outputs whose source is no longer included, naming why; the same files named on the command line count as the whole', async () => {
    expect((await compile()).code).toBe(0);
    await write(
      'pipewright.config.ts',
      `import { defineConfig } from 'pipewright';\nexport default defineConfig({ include: ['defs/project.ts', 'defs/terraform.ts'], outDir: 'out' });\n`,
    );
    const check = await compile('--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(
      `  orphan   ${BUILD}  (its source defs/build.ts is not among the entries compiled (the config's include); compile removes it)\n`,
    );
    // The include's files, named one by one: a compile of the whole project too.
    const result = await compile('defs/terraform.ts', 'defs/project.ts');
    expect(result.stdout).toBe(
      'compiled 3 documents to out: 1 written, 3 unchanged, 1 removed\n' +
        `  removed  ${BUILD}  (its source defs/build.ts is not among the entries compiled (the config's include))\n`,
    );
  });
});
