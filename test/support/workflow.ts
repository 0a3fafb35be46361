import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parse } from 'yaml';
import { runProcess, type CliResult } from './cli.js';

/**
 * Runs a GitHub Actions job's `run:` steps as a shell script would, on this machine: the `if:` conditions and
 * `${{ }}` expressions are evaluated for the given event and secrets, `uses:` steps (checkout, setup-node)
 * are what the test's folder and Node already are. Only the expression forms the scaffold uses are
 * understood (`a == 'b' && ...`, `secrets.X || 'default'`); anything else throws, so a workflow that
 * outgrows this runner fails its test rather than passing untested.
 */
export interface WorkflowContext {
  readonly eventName: 'push' | 'pull_request';
  readonly ref: string;
  readonly secrets: Readonly<Record<string, string>>;
}

export interface StepRun {
  readonly name: string;
  readonly skipped: boolean;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly env: Readonly<Record<string, string>>;
}

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
}

function operand(text: string, context: WorkflowContext): string {
  const token = text.trim();
  const literal = /^'((?:[^']|'')*)'$/.exec(token);
  if (literal) return literal[1]!.replace(/''/g, "'");
  const secret = /^secrets\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(token);
  if (secret) return context.secrets[secret[1]!] ?? '';
  if (token === 'github.event_name') return context.eventName;
  if (token === 'github.ref') return context.ref;
  throw new Error(`the workflow runner does not understand ${JSON.stringify(token)}`);
}

/** `a || b || 'c'`: the first non-empty value, as GitHub's `||` gives for strings. */
const value = (expression: string, context: WorkflowContext): string =>
  expression.split('||').map((part) => operand(part, context)).find((v) => v !== '') ?? '';

/** `a == 'b' && c == 'd'`. */
const condition = (expression: string, context: WorkflowContext): boolean =>
  expression.split('&&').every((clause) => {
    const [left, right, ...rest] = clause.split('==');
    if (right === undefined || rest.length > 0) throw new Error(`the workflow runner does not understand ${JSON.stringify(clause.trim())}`);
    return operand(left!, context) === operand(right, context);
  });

/** Replaces each `${{ expression }}` in a value. */
export const interpolate = (text: string, context: WorkflowContext): string =>
  text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => value(expression, context));

/** `sh -e -c script`, with this Node first on the PATH. */
export const runScript = (script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> =>
  runProcess('sh', ['-e', '-c', script], { cwd, env: { ...env, PATH: `${dirname(process.execPath)}:${env.PATH ?? ''}` } });

/** The steps of `job`, in order, until one fails (as GitHub stops a job); `baseEnv` is the runner's environment. */
export async function runJob(file: string, job: string, cwd: string, context: WorkflowContext, baseEnv: NodeJS.ProcessEnv): Promise<StepRun[]> {
  const workflow = parse(await readFile(file, 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  const runs: StepRun[] = [];
  for (const step of workflow.jobs[job]!.steps) {
    if (step.uses) continue;
    const name = step.name ?? step.run!;
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, text]) => [key, interpolate(text, context)]));
    const condText = step.if?.replace(/^\$\{\{(.*)\}\}$/s, '$1');
    if (condText !== undefined && !condition(condText, context)) {
      runs.push({ name, skipped: true, code: 0, stdout: '', stderr: '', env });
      continue;
    }
    const result = await runScript(interpolate(step.run!, context), cwd, { ...baseEnv, ...env });
    runs.push({ name, skipped: false, ...result, env });
    if (result.code !== 0) break;
  }
  return runs;
}
