import { describe, expect, it } from 'vitest';
import { validateDocument } from '../src/check/check-document.js';

/** A pipeline as the corpus writes them: a CD stage with a rolling deploy and a script, a CI stage, variables. */
const corpusLike = () => ({
  pipeline: {
    identifier: 'deploy',
    name: 'deploy',
    projectIdentifier: 'web',
    orgIdentifier: 'default',
    timeout: '1h',
    delegateSelectors: ['linux'],
    variables: [
      { name: 'replicas', type: 'Number', value: 3 },
      { name: 'tag', type: 'String', value: '<+input>' },
    ],
    stages: [
      {
        stage: {
          identifier: 'build',
          name: 'build',
          type: 'CI',
          spec: {
            cloneCodebase: false,
            platform: { os: 'Linux', arch: 'Amd64' },
            runtime: { type: 'Cloud', spec: {} },
            execution: {
              steps: [
                {
                  step: {
                    identifier: 'test',
                    name: 'test',
                    type: 'Run',
                    spec: { shell: 'Sh', command: 'npm test', privileged: false, envVariables: { CI: 'true' } },
                  },
                },
              ],
            },
          },
        },
      },
      {
        stage: {
          identifier: 'prod',
          name: 'prod',
          type: 'Deployment',
          spec: {
            deploymentType: 'Kubernetes',
            service: { serviceRef: 'api' },
            environment: {
              environmentRef: 'prod',
              deployToAll: false,
              infrastructureDefinitions: [{ identifier: 'k8s' }],
            },
            execution: {
              steps: [
                {
                  step: {
                    identifier: 'rollout',
                    name: 'rollout',
                    type: 'K8sRollingDeploy',
                    timeout: '10m',
                    spec: { skipDryRun: false, pruningEnabled: false },
                  },
                },
                {
                  step: {
                    identifier: 'smoke',
                    name: 'smoke',
                    type: 'ShellScript',
                    timeout: '5m',
                    spec: {
                      shell: 'Bash',
                      onDelegate: true,
                      source: { type: 'Inline', spec: { script: 'curl -f x' } },
                    },
                    failureStrategies: [
                      {
                        onFailure: {
                          errors: ['AllErrors'],
                          action: { type: 'Retry', spec: { retryCount: 2, retryIntervals: ['10s'] } },
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
          failureStrategies: [{ onFailure: { errors: ['AllErrors'], action: { type: 'StageRollback' } } }],
        },
      },
    ],
  },
});

const STEPS_CI = ['pipeline', 'stages', 0, 'stage', 'spec', 'execution', 'steps'];
const STEPS_CD = ['pipeline', 'stages', 1, 'stage', 'spec', 'execution', 'steps'];

/** One wrong value in each kind of field the schema has. */
const MUTATIONS: ReadonlyArray<readonly [string, readonly (string | number)[], unknown]> = [
  ['a boolean or expression', [...STEPS_CD, 0, 'step', 'spec', 'skipDryRun'], 'maybe'],
  ['a boolean or expression, given a number', [...STEPS_CD, 0, 'step', 'spec', 'pruningEnabled'], 7],
  ['a boolean or text', [...STEPS_CD, 1, 'step', 'spec', 'onDelegate'], 'maybe'],
  ['a boolean of a CI step', [...STEPS_CI, 0, 'step', 'spec', 'privileged'], 'perhaps'],
  ['an enum', [...STEPS_CD, 1, 'step', 'spec', 'shell'], 'Bashh'],
  ['an enum of a CI step', [...STEPS_CI, 0, 'step', 'spec', 'shell'], 'Zsh'],
  ['a duration', [...STEPS_CD, 0, 'step', 'timeout'], 'soon'],
  ['an identifier', [...STEPS_CD, 0, 'step', 'identifier'], '1 bad'],
  ['a list or expression', ['pipeline', 'delegateSelectors'], 'linux'],
  ['a map', [...STEPS_CI, 0, 'step', 'spec', 'envVariables'], ['CI']],
  ['a number', [...STEPS_CD, 1, 'step', 'failureStrategies', 0, 'onFailure', 'action', 'spec', 'retryCount'], 'two'],
  [
    'a list of durations',
    [...STEPS_CD, 1, 'step', 'failureStrategies', 0, 'onFailure', 'action', 'spec', 'retryIntervals'],
    'often',
  ],
  ['a Number variable', ['pipeline', 'variables', 0, 'value'], 'abc'],
  ['a deployment type', ['pipeline', 'stages', 1, 'stage', 'spec', 'deploymentType'], 'Kubernetess'],
  [
    'a failure type',
    ['pipeline', 'stages', 1, 'stage', 'failureStrategies', 0, 'onFailure', 'errors', 0],
    'Everything',
  ],
  ['a map where text goes', [...STEPS_CD, 1, 'step', 'spec', 'source', 'spec', 'script'], { run: 'x' }],
];

function mutated(path: readonly (string | number)[], value: unknown): unknown {
  const document = corpusLike();
  let at: any = document;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path.at(-1)!] = value;
  return document;
}

describe("validate's messages are ours, never zod's", () => {
  it('the unmutated document is valid', () => {
    expect(validateDocument('pipeline', corpusLike()).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it.each(MUTATIONS)('%s: an error that names the field and never shows zod text', (_kind, path, value) => {
    const errors = validateDocument('pipeline', mutated(path, value)).filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    if (process.env.SHOW_MESSAGES) console.log(errors.map((d) => d.message).join('\n'));
    for (const { message } of errors) {
      expect(message).not.toMatch(/Invalid|\/<\\\+\/|must match pattern|expected .* received/);
    }
  });

  it('a boolean that is neither true nor false reads as one', () => {
    const [error] = validateDocument('pipeline', mutated([...STEPS_CD, 0, 'step', 'spec', 'skipDryRun'], 'maybe'));
    expect(error!.message).toBe('spec.skipDryRun "maybe" is not true or false (or a <+...> expression)');
  });
});
