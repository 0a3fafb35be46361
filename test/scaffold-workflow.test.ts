import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runCli, tempDir } from './support/cli.js';
import { ACCOUNT_ID, ADMIN_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { lockConsumerProject, packPipewright } from './support/pack-install.js';
import { interpolate, readWorkflow, runJob, runScript, type JobRun, type WorkflowContext } from './support/workflow.js';

// The GitHub workflow `init` writes, run job by job and step by step in the scaffolded project: `npm ci`
// (offline, with pipewright from its packed tarball standing in for the registry), `compile --check
// --typecheck`, on a pull request the plan (publish --dry-run) into the job summary, and on the default branch
// publish to the emulator, the publish record kept between runs in a folder standing in for the Actions cache.
// The secrets are given as the workflow gives them, as environment variables.

let dir: string;
let cleanup: () => Promise<void>;
let project: string;
let workflow: string;
let cache: string;
let emulator: Emulator;
let runs = 0;

/** The runner's own environment: nothing of ours that the workflow does not set itself, and no network. */
const runnerEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    NO_COLOR: '1',
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('HARNESS_') && !key.startsWith('npm_')) env[key] = value;
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  return env;
};

const secrets = () => ({ HARNESS_BASE_URL: emulator.url, HARNESS_ACCOUNT_ID: ACCOUNT_ID, HARNESS_API_KEY: ADMIN_KEY });
/** The repository's default branch is `trunk`: nothing may assume `main`. */
const DEFAULT_BRANCH = 'trunk';
/** What the workflow caches: the publish record and the journal a cancelled publish leaves. */
const RECORD_PATHS = 'out.published.json\nout.published.journal\n';
const event = (eventName: WorkflowContext['eventName'], ref: string, withSecrets = true): WorkflowContext => ({
  eventName,
  ref,
  defaultBranch: DEFAULT_BRANCH,
  runId: String(++runs),
  cache,
  secrets: withSecrets ? secrets() : {},
});
const pullRequest = (withSecrets = true) => event('pull_request', 'refs/pull/7/merge', withSecrets);
const pushTo = (branch: string) => event('push', `refs/heads/${branch}`);

const job = (name: string, context: WorkflowContext) => runJob(workflow, name, project, context, runnerEnv());
const outcome = (run: JobRun) => run.steps.map((s) => [s.name, s.skipped ? 'skipped' : s.code]);
const step = (run: JobRun, name: string) => run.steps.find((s) => s.name === name)!;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-workflow-'));
  const { tarball } = await packPipewright(dir);
  expect((await runCli(['init', 'repo', '--name', 'shop'], { cwd: dir })).code).toBe(0);
  project = join(dir, 'repo');
  workflow = join(project, '.github/workflows/pipewright.yml');
  cache = join(dir, 'actions-cache');
  await lockConsumerProject(project, tarball);
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator?.stop();
  await cleanup?.();
});

describe('the scaffolded CI workflow, as written', () => {
  it('checks every push and pull request, publishes only pushes to the default branch, one run at a time', async () => {
    const parsed = await readWorkflow(workflow);
    // No branch filter: a repository whose default branch is not `main` still publishes.
    expect(parsed.on).toEqual({ push: null, pull_request: null });
    expect(parsed.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(parsed.jobs)).toEqual(['check', 'publish']);
    const publish = parsed.jobs.publish!;
    expect(publish.needs).toBe('check');
    expect(publish.if).toBe(
      "github.event_name == 'push' && github.ref_type == 'branch' && github.ref_name == github.event.repository.default_branch",
    );
    expect(publish.concurrency).toEqual({ group: 'pipewright-publish', 'cancel-in-progress': false });
    expect(await readFile(workflow, 'utf8')).not.toContain('refs/heads/main');
    // The record restored before each plan and publish is the one publish writes beside out/, and is saved after.
    const cacheSteps = Object.values(parsed.jobs).flatMap((j) =>
      j.steps.filter((s) => s.uses?.startsWith('actions/cache/')),
    );
    expect(cacheSteps.map((s) => [s.uses, s.with!.path, s.if ?? ''])).toEqual([
      ['actions/cache/restore@v4', RECORD_PATHS, "github.event_name == 'pull_request'"],
      ['actions/cache/restore@v4', RECORD_PATHS, ''],
      ['actions/cache/save@v4', RECORD_PATHS, 'always()'],
    ]);
    expect(await readFile(join(project, '.gitignore'), 'utf8')).toContain(
      '\nout.published.json\nout.published.journal\n',
    );
  });

  it("the GitLab CI version in docs/publishing.md is YAML, and plans and publishes with the workflow's commands", async () => {
    const docs = await readFile(join(ROOT, 'docs/publishing.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### GitLab CI'));
    const gitlab = parse(section.slice(section.indexOf('```yaml\n') + 8, section.indexOf('\n```\n'))) as Record<
      string,
      { script?: string[]; resource_group?: string; rules?: Array<{ if: string }>; cache?: { paths: string[] } }
    >;
    const command = (script: string) => script.replace(/ >+ .*$/, '');
    const github = (await readWorkflow(workflow)).jobs;
    const runOf = (name: string, stepName: string) =>
      github[name]!.steps.find((s) => s.name === stepName)!
        .run!.trim()
        .split('\n')
        .at(-1)!;
    expect(command(gitlab.plan!.script![0]!)).toBe(command(runOf('check', 'plan')));
    expect(command(gitlab.publish!.script![0]!)).toBe(command(runOf('publish', 'publish')));
    expect(gitlab.check!.script).toEqual([github.check!.steps.find((s) => s.name === 'compile --check')!.run]);
    expect(gitlab.publish!.resource_group).toBe('pipewright-publish');
    expect(gitlab.publish!.rules).toEqual([
      { if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE == "push"' },
    ]);
    expect(gitlab.publish!.cache!.paths).toEqual(['out.published.json', 'out.published.journal']);
  });

  it("publishes to the platform's SaaS address when no HARNESS_BASE_URL secret is set", async () => {
    const text = await readFile(workflow, 'utf8');
    const lines = text.split('\n').filter((l) => l.trim().startsWith('HARNESS_BASE_URL:'));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const expression = line
        .slice(line.indexOf(':') + 1)
        .trim()
        .replace(/^"|"$/g, '');
      expect(interpolate(expression, { ...pullRequest(), secrets: {} })).toBe('https://app.harness.io');
      expect(
        interpolate(expression, { ...pullRequest(), secrets: { HARNESS_BASE_URL: 'https://harness.example.com' } }),
      ).toBe('https://harness.example.com');
    }
  });
});

// Each job run installs the project afresh (npm ci), as CI does: minutes on a busy machine, not seconds.
describe('the scaffolded CI workflow, run', { timeout: 300_000 }, () => {
  it('fails a pull request whose out/ was never compiled, plans nothing and publishes nothing', async () => {
    const check = await job('check', pullRequest());
    expect(outcome(check)).toEqual([
      ['npm ci', 0],
      ['compile --check', 1],
      ['restore the publish record', 'skipped'],
      ['plan', 'skipped'],
    ]);
    expect(step(check, 'compile --check').stderr).toContain('out is out of date: 4 files differ');
    expect(step(check, 'compile --check').stderr).toContain('run pipewright compile to update it');
    expect((await job('publish', pullRequest())).skipped).toBe(true);
    expect(emulator.requests).toEqual([]);
  });

  it('plans a pull request in its job summary, writing nothing; publishes a push to the default branch, and only that', async () => {
    // What the user does before committing: compile with the installed binary.
    const compiled = await runScript('node_modules/.bin/pipewright compile', project, runnerEnv());
    expect(compiled).toEqual({
      code: 0,
      stdout: 'compiled 3 documents to out: 4 written, 0 unchanged, 0 removed\n',
      stderr: '',
    });

    const check = await job('check', pullRequest());
    expect(outcome(check)).toEqual([
      ['npm ci', 0],
      ['compile --check', 0],
      ['restore the publish record', 0],
      ['plan', 0],
    ]);
    expect(step(check, 'compile --check').stdout).toBe('out is up to date (3 documents)\n');
    expect(step(check, 'restore the publish record').stdout).toMatch(/^Cache not found/);
    const plan = step(check, 'plan');
    expect(plan.stdout).toBe('');
    expect(`${plan.stdout}${plan.stderr}${plan.summary}`).not.toContain(ADMIN_KEY);
    expect(plan.summary.replace(emulator.url, 'https://platform.example')).toMatchInlineSnapshot(`
      "## pipewright plan: \`out\` against https://platform.example (account \`acct_emulator_1\`)

      A dry run: nothing was written. This is what a publish would do.

      | | would create | would update | unchanged | failed |
      |---|---:|---:|---:|---:|
      | projects | 1 | 0 | 0 | 0 |
      | pipelines | 2 | 0 | 0 | 0 |
      | **total** | **3** | **0** | **0** | **0** |

      ### Would create (3)

      - project \`default/shop\` (\`projects/default/shop.yaml\`)
      - pipeline \`default/shop/hello\` (\`pipelines/default/shop/hello.yaml\`)
      - pipeline \`default/shop/pipewright_ci\` (\`pipelines/default/shop/pipewright_ci.yaml\`)
        - warning: stage "compile\\_and\\_publish" \\> step "check" \\> spec.connectorRef, connector \\_/\\_/harnessImage, does not exist on the platform and is not in this run: the platform saves the pipeline, and a run of it fails

      6 requests to the platform.
      "
    `);
    expect(emulator.totalWrites()).toBe(0);

    // A fork's pull request gets no secrets: the summary says why there is no plan, and the job passes.
    const fork = await job('check', pullRequest(false));
    expect(outcome(fork).at(-1)).toEqual(['plan', 0]);
    expect(step(fork, 'plan').summary).toBe(
      "No plan: the HARNESS_API_KEY secret is not given to this pull request (GitHub gives none to a fork's).\n",
    );

    // A push to another branch is checked, not published; a push to the default branch is published.
    expect((await job('publish', pushTo('main'))).skipped).toBe(true);
    expect(emulator.totalWrites()).toBe(0);
    const onPush = await job('check', pushTo(DEFAULT_BRANCH));
    expect(outcome(onPush)).toEqual([
      ['npm ci', 0],
      ['compile --check', 0],
      ['restore the publish record', 'skipped'],
      ['plan', 'skipped'],
    ]);
    const publish = await job('publish', pushTo(DEFAULT_BRANCH));
    expect(outcome(publish)).toEqual([
      ['npm ci', 0],
      ['restore the publish record', 0],
      ['publish', 0],
      ['keep the publish record', 0],
    ]);
    const published = step(publish, 'publish');
    expect(published.env).toEqual(secrets());
    expect(`${published.stdout}${published.stderr}${published.summary}`).not.toContain(ADMIN_KEY);
    expect(published.summary).toContain('| **total** | **3** | **0** | **0** | **0** |');
    expect(step(publish, 'keep the publish record').stdout).toMatch(
      /^Cache saved with key: pipewright-published-\d+\n$/,
    );
    expect(emulator.violations).toEqual([]);
    expect(emulator.writes('project', 'default', undefined, 'shop')).toEqual({ creates: 1, updates: 0 });
    expect(emulator.writes('pipeline', 'default', 'shop', 'hello')).toEqual({ creates: 1, updates: 0 });
    expect(emulator.writes('pipeline', 'default', 'shop', 'pipewright_ci')).toEqual({ creates: 1, updates: 0 });
  });

  it('keeps the record between runs: a change made in the UI shows in the next plan, and the next publish leaves it alone and fails', async () => {
    // Every run starts from a fresh checkout: the record is only in the cache.
    await rm(join(project, 'out.published.json'), { force: true });
    emulator.edit('pipeline', 'default', 'shop', 'hello', (body) => (body.description = 'edited in the UI'));

    const check = await job('check', pullRequest());
    expect(outcome(check).at(-1)).toEqual(['plan', 1]);
    expect(step(check, 'restore the publish record').stdout).toMatch(
      /^Cache restored from key: pipewright-published-\d+\n$/,
    );
    expect(step(check, 'plan').summary).toContain(
      '### Drift: changed on the platform since the last publish, left alone (1)',
    );
    expect(step(check, 'plan').summary).toContain('- description: "edited in the UI"');

    await rm(join(project, 'out.published.json'), { force: true });
    const publish = await job('publish', pushTo(DEFAULT_BRANCH));
    expect(outcome(publish)).toEqual([
      ['npm ci', 0],
      ['restore the publish record', 0],
      ['publish', 1],
      ['keep the publish record', 0],
    ]);
    expect(step(publish, 'publish').summary).toContain(
      'pipeline `default/shop/hello` (`pipelines/default/shop/hello.yaml`): drift: changed on the platform',
    );
    expect(emulator.writes('pipeline', 'default', 'shop', 'hello')).toEqual({ creates: 1, updates: 0 });
    expect(emulator.resource('pipeline', 'default', 'shop', 'hello')!.body.description).toBe('edited in the UI');
  });

  it('fails a pull request that changed a definition without compiling it', async () => {
    const hello = join(project, 'pipelines/hello.ts');
    await writeFile(hello, (await readFile(hello, 'utf8')).replace("timeout: '5m'", "timeout: '7m'"));
    const check = await job('check', pullRequest());
    expect(outcome(check).slice(0, 2)).toEqual([
      ['npm ci', 0],
      ['compile --check', 1],
    ]);
    expect(step(check, 'compile --check').stderr).toContain('  changed  pipelines/default/shop/hello.yaml');
  });
});
