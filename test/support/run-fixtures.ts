import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Doc } from './emulator-output.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './emulator.js';
import { BIN, ROOT } from './cli.js';
import { FAST_RETRIES } from './emulator-run.js';

/**
 * Pipelines for `pipewright run` against the emulator, whose executions run them step by step
 * (emulator-executions.ts): a step whose script says `emulator:fail` fails, a HarnessApproval step waits.
 */

const shell = (identifier: string, script = 'echo ok') => ({
  step: {
    identifier,
    name: identifier,
    type: 'ShellScript',
    timeout: '10m',
    spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script } } },
  },
});

const approval = (identifier: string) => ({
  step: {
    identifier,
    name: identifier,
    type: 'HarnessApproval',
    timeout: '1d',
    spec: {
      approvalMessage: 'Please approve',
      includePipelineExecutionHistory: true,
      approvers: { userGroups: ['_project_all_users'], minimumCount: 1, disallowPipelineExecutor: false },
    },
  },
});

const custom = (identifier: string, steps: unknown[]) => ({
  stage: { identifier, name: identifier, type: 'Custom', spec: { execution: { steps } } },
});

/** A pipeline of project `shop` with runtime inputs: `env` (allowed dev, prod), `tag` (required), `replicas` (Number). */
export function pipelineDoc(identifier: string, stages: unknown[], variables = true): Doc {
  return {
    pipeline: {
      name: identifier,
      identifier,
      orgIdentifier: 'default',
      projectIdentifier: 'shop',
      tags: {},
      stages,
      ...(variables
        ? {
            variables: [
              { name: 'env', type: 'String', value: '<+input>.allowedValues(dev,prod)' },
              { name: 'tag', type: 'String', value: '<+input>' },
              { name: 'replicas', type: 'Number', value: '<+input>.default(2)' },
            ],
          }
        : {}),
    },
  };
}

export const succeeding = (identifier = 'deploy') =>
  pipelineDoc(identifier, [custom('build', [shell('compile'), shell('test')]), custom('ship', [shell('push')])]);
export const failing = (identifier = 'deploy') =>
  pipelineDoc(identifier, [
    custom('build', [shell('compile')]),
    custom('ship', [shell('rollout', 'emulator:fail'), shell('after')]),
  ]);
export const awaitingApproval = (identifier = 'deploy') =>
  pipelineDoc(
    identifier,
    [custom('build', [shell('compile')]), custom('gate', [approval('approve'), shell('after')])],
    false,
  );
export const plain = (identifier: string, steps: number) =>
  pipelineDoc(
    identifier,
    [
      custom(
        'only',
        Array.from({ length: steps }, (_, i) => shell(`s${i + 1}`)),
      ),
    ],
    false,
  );

/** Stores the project `shop` and each pipeline on the emulator, as published. */
export function seedPipelines(emulator: Emulator, docs: readonly Doc[]): void {
  emulator.seed({
    kind: 'project',
    org: 'default',
    identifier: 'shop',
    body: { identifier: 'shop', name: 'shop', orgIdentifier: 'default' },
  });
  for (const doc of docs)
    emulator.seed({
      kind: 'pipeline',
      org: 'default',
      project: 'shop',
      identifier: String(doc.pipeline!.identifier),
      body: doc.pipeline!,
    });
}

/** The environment a run against the emulator needs; fast polls unless `pollMs` says otherwise (null: the default pace). */
export const runEnv = (emulator: Emulator, pollMs: string | null = '20', key = ADMIN_KEY) => ({
  HARNESS_API_KEY: key,
  HARNESS_ACCOUNT_ID: ACCOUNT_ID,
  HARNESS_BASE_URL: emulator.url,
  NODE_EXTRA_CA_CERTS: undefined,
  PIPEWRIGHT_POLL_MS: pollMs ?? undefined,
  ...FAST_RETRIES,
});

/** `pipewright run ...args` as a child whose output is collected as it comes, to signal it mid-run. */
export function spawnRun(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd = ROOT,
): {
  child: ChildProcessWithoutNullStreams;
  output: () => { stdout: string; stderr: string };
  exited: Promise<number>;
  when: (text: string) => Promise<void>;
} {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, NO_COLOR: '1', ...env }))
    if (value !== undefined) merged[name] = value;
  const child = spawn(process.execPath, [BIN, 'run', ...args], { cwd, env: merged });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  const check = () => {
    for (const waiter of [...waiters])
      if (stdout.includes(waiter.text) || stderr.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((stdout += chunk), check()));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => ((stderr += chunk), check()));
  child.stdin.end();
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return {
    child,
    output: () => ({ stdout, stderr }),
    exited,
    when: (text) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ text, resolve });
        check();
        void exited.then(() =>
          reject(new Error(`the run ended before printing ${JSON.stringify(text)}:\n${stdout}\n${stderr}`)),
        );
      }),
  };
}
