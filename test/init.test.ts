import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-init-')));
afterEach(async () => cleanup());

const SCAFFOLD = [
  '.github/workflows/pipewright.yml',
  '.gitignore',
  'README.md',
  'package.json',
  'pipelines/hello.ts',
  'pipelines/pipewright-ci.ts',
  'pipelines/project.ts',
  'pipewright.config.ts',
  'tsconfig.json',
];

const ownVersion = async () => (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * "Installing" the local package the way `npm link` does: node_modules/pipewright is a symlink to this
 * repository. It needs no network and no registry cache, takes no time, and exercises the same resolution
 * a real install does (the bin under node_modules, `pipewright` types from package.json "types").
 */
async function installLocalPipewright(project: string): Promise<string> {
  await mkdir(join(project, 'node_modules'), { recursive: true });
  await symlink(ROOT, join(project, 'node_modules', 'pipewright'), 'dir');
  return join(project, 'node_modules', 'pipewright', 'bin', 'pipewright.js');
}

function runInstalled(bin: string, args: string[], cwd: string) {
  return promisify(execFile)(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('pipewright init', () => {
  it('scaffolds a project that installs and compiles, type-checked, with the installed binary', async () => {
    const result = await runCli(['init', 'demo'], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('scaffolded demo in demo:');
    expect(result.stdout).toContain('  created   pipewright.config.ts');
    const project = join(dir, 'demo');
    for (const file of SCAFFOLD) expect(existsSync(join(project, file)), file).toBe(true);

    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'demo', private: true, type: 'module', dependencies: { pipewright: `^${await ownVersion()}` } });

    const bin = await installLocalPipewright(project);
    const compiled = await runInstalled(bin, ['compile', '--typecheck'], project);
    expect(compiled.stderr).toBe('');
    expect(compiled.stdout).toBe('compiled 3 documents to out: 4 written, 0 unchanged, 0 removed\n');

    const hello = parse(await readFile(join(project, 'out/pipelines/default/demo/hello.yaml'), 'utf8'));
    expect(hello.pipeline).toMatchObject({ identifier: 'hello', projectIdentifier: 'demo', orgIdentifier: 'default' });
    expect(hello.pipeline.stages[0].stage.spec.execution.steps[0].step).toMatchObject({ type: 'ShellScript', timeout: '5m' });
    const projectDoc = parse(await readFile(join(project, 'out/projects/default/demo.yaml'), 'utf8'));
    expect(projectDoc.project).toMatchObject({ identifier: 'demo', orgIdentifier: 'default' });

    // The platform's own CI pipeline checks on every build and publishes only from main, with the key from a secret.
    const ci = parse(await readFile(join(project, 'out/pipelines/default/demo/pipewright_ci.yaml'), 'utf8'));
    const [check, publish] = ci.pipeline.stages[0].stage.spec.execution.steps.map((s: { step: unknown }) => s.step);
    expect(check.spec.command).toContain('npx pipewright compile --check');
    expect(publish.spec.command).toBe('npx pipewright publish');
    expect(publish.spec.envVariables.HARNESS_API_KEY).toBe('<+secrets.getValue("harness_api_key")>');
    expect(publish.when.condition).toBe('<+codebase.branch> == "main"');

    // What the scaffolded CI runs is green right after a compile.
    const checked = await runInstalled(bin, ['compile', '--check'], project);
    expect(checked).toMatchObject({ code: 0, stdout: 'out is up to date (3 documents)\n' });
  });

  it('writes a GitHub workflow that checks on every push and publishes from main with the secret', async () => {
    expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    const text = await readFile(join(dir, '.github/workflows/pipewright.yml'), 'utf8');
    const workflow = parse(text);
    const steps = workflow.jobs.compile.steps as Array<Record<string, unknown>>;
    expect(steps.map((s) => s.run).filter(Boolean)).toEqual([
      'npm ci',
      'npx pipewright compile --check --typecheck',
      'npx pipewright publish',
    ]);
    const publish = steps.find((s) => s.run === 'npx pipewright publish')!;
    expect(publish.if).toBe("github.event_name == 'push' && github.ref == 'refs/heads/main'");
    // GitHub's own ${{ }} syntax survives the template placeholders.
    expect(publish.env).toEqual({ HARNESS_API_KEY: '${{ secrets.HARNESS_API_KEY }}', HARNESS_ACCOUNT_ID: '${{ vars.HARNESS_ACCOUNT_ID }}' });
    expect(await readFile(join(dir, 'pipewright.config.ts'), 'utf8')).toContain('export default defineConfig({');
  });

  it('derives a valid project identifier from a folder name that is not one', async () => {
    expect((await runCli(['init', '2-my app'], { cwd: dir })).code).toBe(0);
    const pkg = JSON.parse(await readFile(join(dir, '2-my app/package.json'), 'utf8'));
    expect(pkg.name).toBe('2-my-app');
    expect(await readFile(join(dir, '2-my app/pipelines/project.ts'), 'utf8')).toContain("identifier: '_2_my_app'");
  });

  it('refuses to overwrite existing files, names them, and writes nothing', async () => {
    await writeFile(join(dir, 'package.json'), '{"name":"mine"}\n');
    await mkdir(join(dir, 'pipelines'));
    await writeFile(join(dir, 'pipelines/hello.ts'), '// mine\n');
    const result = await runCli(['init'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'pipewright: this folder already has package.json, pipelines/hello.ts; nothing was written\n' +
        '  hint: run init in a new or empty folder, or pass --force to overwrite these files\n',
    );
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe('{"name":"mine"}\n');
    expect(existsSync(join(dir, 'pipewright.config.ts'))).toBe(false);
  });

  it('overwrites with --force, and keeps files the template does not have', async () => {
    await writeFile(join(dir, 'package.json'), '{"name":"mine"}\n');
    await writeFile(join(dir, 'notes.txt'), 'keep me\n');
    const result = await runCli(['init', '.', '--force', '--name', 'infra'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  overwrote package.json');
    expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).name).toBe('infra');
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('keep me\n');
  });

  it('refuses a target that is a file', async () => {
    await writeFile(join(dir, 'taken'), '');
    const result = await runCli(['init', 'taken'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipewright: taken exists and is not a folder');
    expect((await stat(join(dir, 'taken'))).isFile()).toBe(true);
  });

  it('ships every template file in the npm package, dotfiles included', async () => {
    // Packs a copy holding just package.json and templates/: the same "files" rules and npm's dotfile
    // handling, without racing a concurrent build that rewrites dist/ while npm walks it.
    await cp(join(ROOT, 'package.json'), join(dir, 'package.json'));
    await cp(join(ROOT, 'templates'), join(dir, 'templates'), { recursive: true });
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir });
    const packed = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    for (const file of ['_gitignore', '_github/workflows/pipewright.yml', 'package.json', 'pipelines/hello.ts', 'pipewright.config.ts'])
      expect(packed).toContain(`templates/default/${file}`);
  });
});
