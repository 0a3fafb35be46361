import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './support/cli.js';
import { ACCOUNT_ID, ADMIN_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { lockConsumerProject, packPipewright } from './support/pack-install.js';
import { interpolate, runJob, runScript, type WorkflowContext } from './support/workflow.js';

// The GitHub workflow `init` writes, run step by step as a script in the scaffolded project: `npm ci` (offline,
// with pipewright from its packed tarball standing in for the registry), `compile --check --typecheck`, and on
// main `publish` to the emulator, the secrets given as the workflow gives them, as environment variables.

let dir: string;
let cleanup: () => Promise<void>;
let project: string;
let workflow: string;
let emulator: Emulator;

/** The runner's own environment: nothing of ours that the workflow does not set itself, and no network. */
const runnerEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('HARNESS_') && !key.startsWith('npm_')) env[key] = value;
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  return env;
};

const pullRequest = (): WorkflowContext => ({ eventName: 'pull_request', ref: 'refs/pull/7/merge', secrets: {} });
const pushToMain = (): WorkflowContext => ({
  eventName: 'push',
  ref: 'refs/heads/main',
  secrets: { HARNESS_BASE_URL: emulator.url, HARNESS_ACCOUNT_ID: ACCOUNT_ID, HARNESS_API_KEY: ADMIN_KEY },
});

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-workflow-'));
  const { tarball } = await packPipewright(dir);
  expect((await runCli(['init', 'repo', '--name', 'shop'], { cwd: dir })).code).toBe(0);
  project = join(dir, 'repo');
  workflow = join(project, '.github/workflows/pipewright.yml');
  await lockConsumerProject(project, tarball);
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator?.stop();
  await cleanup?.();
});

// Each run installs the project afresh (npm ci), as CI does: minutes on a busy machine, not seconds.
describe('the scaffolded CI workflow', { timeout: 240_000 }, () => {
  it('fails a pull request whose out/ was never compiled, and does not publish', async () => {
    const runs = await runJob(workflow, 'compile', project, pullRequest(), runnerEnv());
    expect(runs.map((r) => [r.name, r.code])).toEqual([
      ['npm ci', 0],
      ['compile --check', 1],
    ]);
    expect(runs[1]!.stderr).toContain('out is out of date: 4 files differ');
    expect(runs[1]!.stderr).toContain('run pipewright compile to update it');
    expect(emulator.requests).toEqual([]);
  });

  it('passes a pull request once out/ is compiled, skipping publish; on main it publishes with the secrets', async () => {
    // What the user does before committing: compile with the installed binary.
    const compiled = await runScript('node_modules/.bin/pipewright compile', project, runnerEnv());
    expect(compiled).toEqual({ code: 0, stdout: 'compiled 3 documents to out: 4 written, 0 unchanged, 0 removed\n', stderr: '' });

    const onPullRequest = await runJob(workflow, 'compile', project, pullRequest(), runnerEnv());
    expect(onPullRequest.map((r) => [r.name, r.code, r.skipped])).toEqual([
      ['npm ci', 0, false],
      ['compile --check', 0, false],
      ['publish', 0, true],
    ]);
    expect(onPullRequest[1]!.stdout).toBe('out is up to date (3 documents)\n');
    expect(emulator.requests).toEqual([]);

    const onMain = await runJob(workflow, 'compile', project, pushToMain(), runnerEnv());
    expect(onMain.map((r) => [r.name, r.code, r.skipped])).toEqual([
      ['npm ci', 0, false],
      ['compile --check', 0, false],
      ['publish', 0, false],
    ]);
    const publish = onMain[2]!;
    expect(publish.env).toEqual({ HARNESS_BASE_URL: emulator.url, HARNESS_ACCOUNT_ID: ACCOUNT_ID, HARNESS_API_KEY: ADMIN_KEY });
    expect(`${publish.stdout}${publish.stderr}`).not.toContain(ADMIN_KEY);
    expect(emulator.violations).toEqual([]);
    expect(emulator.writes('project', 'default', undefined, 'shop')).toEqual({ creates: 1, updates: 0 });
    expect(emulator.writes('pipeline', 'default', 'shop', 'hello')).toEqual({ creates: 1, updates: 0 });
    expect(emulator.writes('pipeline', 'default', 'shop', 'pipewright_ci')).toEqual({ creates: 1, updates: 0 });
  });

  it('fails a pull request that changed a definition without compiling it', async () => {
    const hello = join(project, 'pipelines/hello.ts');
    await writeFile(hello, (await readFile(hello, 'utf8')).replace("timeout: '5m'", "timeout: '7m'"));
    const runs = await runJob(workflow, 'compile', project, pullRequest(), runnerEnv());
    expect(runs.map((r) => [r.name, r.code])).toEqual([
      ['npm ci', 0],
      ['compile --check', 1],
    ]);
    expect(runs[1]!.stderr).toContain('  changed  pipelines/default/shop/hello.yaml');
  });

  it("publishes to the platform's SaaS address when no HARNESS_BASE_URL secret is set", async () => {
    const text = await readFile(workflow, 'utf8');
    const [line] = text.split('\n').filter((l) => l.trim().startsWith('HARNESS_BASE_URL:'));
    const expression = line!.slice(line!.indexOf(':') + 1).trim().replace(/^"|"$/g, '');
    expect(interpolate(expression, { ...pullRequest(), secrets: {} })).toBe('https://app.harness.io');
    expect(interpolate(expression, { ...pullRequest(), secrets: { HARNESS_BASE_URL: 'https://harness.example.com' } })).toBe(
      'https://harness.example.com',
    );
  });
});
