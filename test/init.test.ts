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

const ownVersion = async () =>
  (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

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
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
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
    expect(pkg).toMatchObject({
      name: 'demo',
      private: true,
      type: 'module',
      dependencies: { pipewright: `^${await ownVersion()}` },
    });
    // The workflow's --typecheck needs ts-morph, an optional peer of pipewright: the scaffold asks for it.
    expect(pkg.devDependencies).toEqual({
      'ts-morph': JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).peerDependencies['ts-morph'],
    });

    const bin = await installLocalPipewright(project);
    const compiled = await runInstalled(bin, ['compile', '--typecheck'], project);
    expect(compiled.stderr).toBe('');
    expect(compiled.stdout).toBe('compiled 3 documents to out: 4 written, 0 unchanged, 0 removed\n');

    const hello = parse(await readFile(join(project, 'out/pipelines/default/demo/hello.yaml'), 'utf8'));
    expect(hello.pipeline).toMatchObject({ identifier: 'hello', projectIdentifier: 'demo', orgIdentifier: 'default' });
    expect(hello.pipeline.stages[0].stage.spec.execution.steps[0].step).toMatchObject({
      type: 'ShellScript',
      timeout: '5m',
    });
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

  it('writes a GitHub workflow that checks and plans pull requests and publishes from the default branch with the secrets', async () => {
    expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    const text = await readFile(join(dir, '.github/workflows/pipewright.yml'), 'utf8');
    const workflow = parse(text);
    expect(Object.keys(workflow.on)).toEqual(['push', 'pull_request']);
    const runs = (job: string) => (workflow.jobs[job].steps as Array<Record<string, unknown>>).filter((s) => s.run);
    expect(runs('check').map((s) => String(s.run).trim().split('\n').at(-1))).toEqual([
      'npm ci',
      'npx pipewright compile --check --typecheck',
      'npx pipewright publish --dry-run --fail-on-drift --format markdown >> "$GITHUB_STEP_SUMMARY"',
    ]);
    expect(runs('publish').map((s) => s.run)).toEqual([
      'npm ci',
      'npx pipewright publish --fail-on-drift --format markdown >> "$GITHUB_STEP_SUMMARY"',
    ]);
    expect(workflow.jobs.publish.if).toBe(
      "github.event_name == 'push' && github.ref_type == 'branch' && github.ref_name == github.event.repository.default_branch",
    );
    // GitHub's own ${{ }} syntax survives the template placeholders; the SaaS address when no secret names another.
    for (const step of [runs('check')[2]!, runs('publish')[1]!])
      expect(step.env).toEqual({
        HARNESS_BASE_URL: "${{ secrets.HARNESS_BASE_URL || 'https://app.harness.io' }}",
        HARNESS_ACCOUNT_ID: '${{ secrets.HARNESS_ACCOUNT_ID }}',
        HARNESS_API_KEY: '${{ secrets.HARNESS_API_KEY }}',
      });
    // The key is given to the steps that talk to the platform only, never to `npm ci` (a dependency's scripts);
    // the optional run step, commented out, gets it too when it is uncommented.
    const active = text
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n');
    expect(active.match(/HARNESS_API_KEY: \$\{\{/g)).toHaveLength(2);
    expect(text.match(/#\s+HARNESS_API_KEY: \$\{\{/g)).toHaveLength(1);
    // The scaffolded README names the secrets the workflow reads.
    const readme = await readFile(join(dir, 'README.md'), 'utf8');
    for (const name of ['HARNESS_ACCOUNT_ID', 'HARNESS_API_KEY', 'HARNESS_BASE_URL']) expect(readme).toContain(name);
    expect(await readFile(join(dir, 'pipewright.config.ts'), 'utf8')).toContain('export default defineConfig({');
  });

  it('derives a valid project identifier from a folder name that is not one', async () => {
    expect((await runCli(['init', '2-my app'], { cwd: dir })).code).toBe(0);
    const pkg = JSON.parse(await readFile(join(dir, '2-my app/package.json'), 'utf8'));
    expect(pkg.name).toBe('2-my-app');
    expect(await readFile(join(dir, '2-my app/pipelines/project.ts'), 'utf8')).toContain("identifier: '_2_my_app'");
  });

  it('adds to an existing npm project without changing anything the user wrote, and says what it added', async () => {
    const userPackage = {
      name: '@acme/infra',
      version: '3.1.0',
      scripts: { build: 'tsc -b', test: 'vitest' },
      dependencies: { express: '^5.0.0' },
      devDependencies: { 'ts-morph': '^28.1.0' },
    };
    // Four-space indentation and a key order of the user's own: kept.
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(userPackage, null, 4)}\n`);
    await writeFile(join(dir, 'README.md'), '# acme infra\n');
    await writeFile(join(dir, '.gitignore'), 'dist/\n');
    const result = await runCli(['init'], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      [
        'added pipewright to infra in .:',
        '  kept      README.md (yours: init writes one only into an empty folder)',
        '  created   .github/workflows/pipewright.yml',
        '  kept      .gitignore (it exists; --force replaces it)',
        `  added to package.json: dependencies.pipewright ^${await ownVersion()}, scripts.check, scripts.watch, scripts.publish:platform`,
        '  kept your devDependencies.ts-morph ^28.1.0 (init would add ^28.0.0)',
        '  kept your scripts.build "tsc -b" (init would add "pipewright compile")',
        '  created   pipelines/hello.ts',
        '  created   pipelines/pipewright-ci.ts',
        '  created   pipelines/project.ts',
        '  created   pipewright.config.ts',
        '  created   tsconfig.json',
        '',
        'next:',
        '  npm install',
        '  npx pipewright compile          # pipelines/*.ts -> out/',
        '  npx pipewright compile --watch',
        '',
      ].join('\n'),
    );
    const text = await readFile(join(dir, 'package.json'), 'utf8');
    expect(text).toBe(
      `${JSON.stringify(
        {
          ...userPackage,
          scripts: {
            ...userPackage.scripts,
            check: 'pipewright compile --check --typecheck',
            watch: 'pipewright compile --watch',
            'publish:platform': 'pipewright publish',
          },
          dependencies: { express: '^5.0.0', pipewright: `^${await ownVersion()}` },
        },
        null,
        4,
      )}\n`,
    );
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# acme infra\n');
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('dist/\n');
    // The example project takes its identifier from the package name, scope left out.
    expect(await readFile(join(dir, 'pipelines/project.ts'), 'utf8')).toContain("identifier: 'infra'");

    // Run again: everything is there, nothing changes.
    const again = await runCli(['init'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('  kept      package.json (it has what pipewright needs)');
    expect(again.stdout).not.toMatch(/created|overwrote|added to/);
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe(text);
  });

  it('with --force replaces the template files but never removes or changes a dependency or script of the user', async () => {
    const userPackage = {
      name: 'mine',
      scripts: { check: 'eslint .' },
      dependencies: { pipewright: '0.0.9', left: '1.0.0' },
    };
    await writeFile(join(dir, 'package.json'), JSON.stringify(userPackage));
    await mkdir(join(dir, 'pipelines'));
    await writeFile(join(dir, 'pipelines/hello.ts'), '// mine\n');
    await writeFile(join(dir, 'notes.txt'), 'keep me\n');
    const result = await runCli(['init', '.', '--force', '--name', 'infra'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  overwrote pipelines/hello.ts');
    // A folder with files of its own never gets the template's README, not even with --force.
    expect(result.stdout).toContain('  skipped   README.md (init writes one only into an empty folder)');
    expect(existsSync(join(dir, 'README.md'))).toBe(false);
    expect(result.stdout).toContain(
      `  kept your dependencies.pipewright 0.0.9 (init would add ^${await ownVersion()})`,
    );
    expect(result.stdout).toContain(
      '  kept your scripts.check "eslint ." (init would add "pipewright compile --check --typecheck")',
    );
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('mine');
    expect(pkg.dependencies).toEqual({ left: '1.0.0', pipewright: '0.0.9' });
    expect(pkg.devDependencies).toEqual({ 'ts-morph': '^28.0.0' });
    expect(pkg.scripts).toEqual({
      check: 'eslint .',
      build: 'pipewright compile',
      watch: 'pipewright compile --watch',
      'publish:platform': 'pipewright publish',
    });
    expect(await readFile(join(dir, 'pipelines/hello.ts'), 'utf8')).toContain('export const hello = pipeline(');
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('keep me\n');
  });

  it('refuses a package.json that is not JSON, and writes nothing', async () => {
    await writeFile(join(dir, 'package.json'), '{"name": "mine",}\n');
    const result = await runCli(['init'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^pipewright: package\.json is not a valid package\.json \(.+\); nothing was written \[error invalid-package-json\]\n/,
    );
    expect(result.stderr).toContain('    hint: fix it (npm reads it too), or run init in another folder\n');
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe('{"name": "mine",}\n');
    expect(existsSync(join(dir, 'pipewright.config.ts'))).toBe(false);
  });

  it('depends on the version of pipewright that runs it', async () => {
    // A copy of the package that says it is 7.3.1: init must write that, not a version baked into the template.
    const copy = join(dir, 'copy');
    await mkdir(copy);
    for (const part of ['bin', 'dist', 'templates']) await cp(join(ROOT, part), join(copy, part), { recursive: true });
    await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    await writeFile(join(copy, 'package.json'), JSON.stringify({ ...pkg, version: '7.3.1' }));
    const made = await runInstalled(join(copy, 'bin', 'pipewright.js'), ['init', 'fresh'], dir);
    expect(made.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'fresh/package.json'), 'utf8')).dependencies).toEqual({
      pipewright: '^7.3.1',
    });
    await mkdir(join(dir, 'existing'));
    await writeFile(join(dir, 'existing/package.json'), '{"name":"existing"}');
    expect((await runInstalled(join(copy, 'bin', 'pipewright.js'), ['init', 'existing'], dir)).code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'existing/package.json'), 'utf8')).dependencies).toEqual({
      pipewright: '^7.3.1',
    });
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
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: dir,
    });
    const packed = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    for (const file of [
      '_gitignore',
      '_github/workflows/pipewright.yml',
      'package.json',
      'pipelines/hello.ts',
      'pipewright.config.ts',
    ])
      expect(packed).toContain(`templates/default/${file}`);
  });
});
