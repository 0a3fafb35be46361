import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { runProcess, type CliResult } from './cli.js';

/**
 * Runs a GitHub Actions job's steps as the runner would, on this machine: the job's and steps' `if:` conditions
 * and `${{ }}` expressions are evaluated for the given event, branch and secrets; `run:` steps run as shell
 * scripts with `$GITHUB_STEP_SUMMARY` (what each step writes there is returned), `actions/cache/restore` and
 * `actions/cache/save` copy their `path` to and from a folder standing in for the Actions cache (keys as GitHub
 * matches them: the exact key, else the newest entry starting with a `restore-keys` prefix); other `uses:` steps
 * (checkout, setup-node) are what the test's folder and Node already are. Only the expression forms the scaffold
 * uses are understood (`a == 'b' && ...`, `secrets.X || 'default'`, `always()`, the `github.` fields below);
 * anything else throws, so a workflow that outgrows this runner fails its test rather than passing untested.
 */
export interface WorkflowContext {
  readonly eventName: 'push' | 'pull_request';
  readonly ref: string;
  readonly secrets: Readonly<Record<string, string>>;
  /** The repository's default branch (`github.event.repository.default_branch`); `main` when not given. */
  readonly defaultBranch?: string;
  /** `github.run_id`. */
  readonly runId?: string;
  /** The folder standing in for the repository's Actions cache (shared by the runs of one test). */
  readonly cache?: string;
}

export interface StepRun {
  readonly name: string;
  readonly skipped: boolean;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly env: Readonly<Record<string, string>>;
  /** What the step appended to `$GITHUB_STEP_SUMMARY`. */
  readonly summary: string;
}

export interface JobRun {
  /** The job's own `if:` was false: no step ran. */
  readonly skipped: boolean;
  readonly steps: StepRun[];
}

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}

interface Job {
  readonly if?: string;
  readonly steps: Step[];
}

const refName = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '').replace(/^refs\//, '');
const refType = (ref: string) => (ref.startsWith('refs/heads/') ? 'branch' : ref.startsWith('refs/tags/') ? 'tag' : '');

function operand(text: string, context: WorkflowContext): string {
  const token = text.trim();
  const literal = /^'((?:[^']|'')*)'$/.exec(token);
  if (literal) return literal[1]!.replace(/''/g, "'");
  const secret = /^secrets\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(token);
  if (secret) return context.secrets[secret[1]!] ?? '';
  switch (token) {
    case 'github.event_name':
      return context.eventName;
    case 'github.ref':
      return context.ref;
    case 'github.ref_name':
      return refName(context.ref);
    case 'github.ref_type':
      return refType(context.ref);
    case 'github.event.repository.default_branch':
      return context.defaultBranch ?? 'main';
    case 'github.run_id':
      return context.runId ?? '1';
    default:
      throw new Error(`the workflow runner does not understand ${JSON.stringify(token)}`);
  }
}

/** `a || b || 'c'`: the first non-empty value, as GitHub's `||` gives for strings. */
const value = (expression: string, context: WorkflowContext): string =>
  expression
    .split('||')
    .map((part) => operand(part, context))
    .find((v) => v !== '') ?? '';

/** `a == 'b' && c == 'd'`, or `always()`. */
function condition(expression: string, context: WorkflowContext): boolean {
  if (expression.trim() === 'always()') return true;
  return expression.split('&&').every((clause) => {
    const [left, right, ...rest] = clause.split('==');
    if (right === undefined || rest.length > 0)
      throw new Error(`the workflow runner does not understand ${JSON.stringify(clause.trim())}`);
    return operand(left!, context) === operand(right, context);
  });
}

/** An `if:` with or without its `${{ }}`. */
const ifText = (text: string) => text.replace(/^\$\{\{(.*)\}\}$/s, '$1');

/** Replaces each `${{ expression }}` in a value. */
export const interpolate = (text: string, context: WorkflowContext): string =>
  text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => value(expression, context));

/** `sh -e -c script`, with this Node first on the PATH. */
export const runScript = (script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> =>
  runProcess('sh', ['-e', '-c', script], {
    cwd,
    env: { ...env, PATH: `${dirname(process.execPath)}:${env.PATH ?? ''}` },
  });

/** The workflow file, parsed. */
export async function readWorkflow(
  file: string,
): Promise<{ on: unknown; jobs: Record<string, Job & Record<string, unknown>> } & Record<string, unknown>> {
  return parse(await readFile(file, 'utf8')) as { on: unknown; jobs: Record<string, Job & Record<string, unknown>> };
}

/**
 * `actions/cache/restore` and `actions/cache/save` over the context's cache folder: `path` is one file or several,
 * one a line; an entry is a folder holding the files that existed when it was saved.
 */
async function cacheStep(
  action: string,
  inputs: Record<string, string>,
  cwd: string,
  cache: string,
): Promise<CliResult> {
  const paths = inputs
    .path!.split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  await mkdir(cache, { recursive: true });
  if (action === 'actions/cache/save') {
    const present = [];
    for (const path of paths) if (await stat(join(cwd, path)).catch(() => undefined)) present.push(path);
    if (present.length === 0)
      return { code: 0, stdout: `Path does not exist: ${paths.join(', ')}; no cache saved\n`, stderr: '' };
    // A key, once saved, is never overwritten (GitHub's caches are immutable).
    if (await stat(join(cache, inputs.key!)).catch(() => undefined))
      return { code: 0, stdout: `Cache ${inputs.key} exists; not saved\n`, stderr: '' };
    await mkdir(join(cache, inputs.key!));
    for (const path of present) await copyFile(join(cwd, path), join(cache, inputs.key!, basename(path)));
    // The order of saves, for `restore-keys`: the newest match wins.
    await writeFile(
      join(cache, `${inputs.key!}.saved`),
      String((await readdir(cache)).filter((name) => name.endsWith('.saved')).length + 1),
    );
    return { code: 0, stdout: `Cache saved with key: ${inputs.key}\n`, stderr: '' };
  }
  const entries = (await readdir(cache)).filter((name) => !name.endsWith('.saved'));
  const prefixes = (inputs['restore-keys'] ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  let hit = entries.find((name) => name === inputs.key);
  for (const prefix of prefixes) {
    if (hit) break;
    const candidates = entries.filter((name) => name.startsWith(prefix));
    const saved = await Promise.all(
      candidates.map(async (name) => [name, Number(await readFile(join(cache, `${name}.saved`), 'utf8'))] as const),
    );
    hit = saved.sort((a, b) => b[1] - a[1])[0]?.[0];
  }
  if (!hit)
    return { code: 0, stdout: `Cache not found for input keys: ${[inputs.key, ...prefixes].join(', ')}\n`, stderr: '' };
  for (const path of paths) {
    const kept = join(cache, hit, basename(path));
    if (await stat(kept).catch(() => undefined)) await copyFile(kept, join(cwd, path));
  }
  return { code: 0, stdout: `Cache restored from key: ${hit}\n`, stderr: '' };
}

/**
 * The steps of `job`, in order: after a step fails only those with `if: always()` run (as GitHub runs a job);
 * `baseEnv` is the runner's environment.
 */
export async function runJob(
  file: string,
  job: string,
  cwd: string,
  context: WorkflowContext,
  baseEnv: NodeJS.ProcessEnv,
): Promise<JobRun> {
  const definition = (await readWorkflow(file)).jobs[job];
  if (!definition) throw new Error(`the workflow has no job ${job}`);
  if (definition.if !== undefined && !condition(ifText(definition.if), context)) return { skipped: true, steps: [] };
  const summaries = await mkdtemp(join(tmpdir(), 'pipewright-summary-'));
  const steps: StepRun[] = [];
  let failed = false;
  try {
    for (const step of definition.steps) {
      const action = step.uses?.replace(/@.*$/, '');
      if (step.uses && action !== 'actions/cache/restore' && action !== 'actions/cache/save') continue;
      const name = step.name ?? step.run ?? step.uses!;
      const env = Object.fromEntries(
        Object.entries(step.env ?? {}).map(([key, text]) => [key, interpolate(text, context)]),
      );
      const wanted =
        step.if === undefined
          ? !failed
          : condition(ifText(step.if), context) && (!failed || ifText(step.if).trim() === 'always()');
      if (!wanted) {
        steps.push({ name, skipped: true, code: 0, stdout: '', stderr: '', env, summary: '' });
        continue;
      }
      const summary = join(summaries, `step-${steps.length}.md`);
      await writeFile(summary, '');
      const result = step.uses
        ? await cacheStep(
            action!,
            Object.fromEntries(
              Object.entries(step.with ?? {}).map(([key, text]) => [key, interpolate(String(text), context)]),
            ),
            cwd,
            context.cache ?? join(summaries, 'cache'),
          )
        : await runScript(interpolate(step.run!, context), cwd, { ...baseEnv, ...env, GITHUB_STEP_SUMMARY: summary });
      steps.push({ name, skipped: false, ...result, env, summary: await readFile(summary, 'utf8') });
      if (result.code !== 0) failed = true;
    }
  } finally {
    await rm(summaries, { recursive: true, force: true });
  }
  return { skipped: false, steps };
}
