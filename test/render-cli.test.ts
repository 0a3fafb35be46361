import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';
import { shellStepLines } from './support/fixtures.js';

// `pipewright render`, run as a user runs it: the pipeline that will run, from the compiled output (by identifier)
// or from YAML files, with input sets and --set values merged as the platform merges them (docs/render.md).

let dir: string;
let cleanup: () => Promise<void>;
const render = (...args: string[]) => runCli(['render', ...args], { cwd: dir });

const DEFINITIONS = `import { custom, input, inputSet, overlayInputSet, parallel, pipeline, shell, stepGroup } from 'pipewright';

export const deploy = pipeline({
  identifier: 'deploy',
  project: 'web',
  variables: { env: input().allowedValues('dev', 'staging', 'prod'), region: input().default('eu-west-1'), tag: input().regex('v[0-9]+'), team: 'core' },
}).stage(
  custom({ identifier: 'build', name: 'Build' }).step(
    shell({ identifier: 'prepare', name: 'Prepare', script: 'echo prepare', timeout: input() }),
    parallel(shell({ identifier: 'lint', name: 'Lint', script: 'npm run lint', timeout: '5m' }), shell({ identifier: 'test', name: 'Test', script: input(), timeout: '10m' })),
    stepGroup({ identifier: 'publish', name: 'Publish' }).step(shell({ identifier: 'push', name: 'Push', script: 'echo push', timeout: '10m' })),
  ),
  custom({ identifier: 'notify', name: 'Notify' }).step(shell({ identifier: 'say', name: 'Say', script: 'echo done', timeout: '1m' })),
);

const variable = (name: string, value: string) => ({ name, type: 'String', value });
export const base = inputSet({
  identifier: 'base',
  pipeline: deploy,
  values: {
    variables: [variable('env', 'dev'), variable('tag', 'v1'), variable('region', 'us-east-1')],
    stages: [{ stage: { identifier: 'build', type: 'Custom', spec: { execution: { steps: [{ step: { identifier: 'prepare', type: 'ShellScript', timeout: '5m' } }] } } } }],
  },
});
export const prod = inputSet({ identifier: 'prod', pipeline: deploy, values: { variables: [variable('env', 'prod'), variable('tag', '<+input>')] } });
export const prod_overlay = overlayInputSet({ identifier: 'prod_overlay', pipeline: deploy, inputSets: [base, prod] });
export const wrong = inputSet({ identifier: 'wrong', pipeline: deploy, values: { variables: [variable('env', 'qa'), variable('tag', 'release-1')] } });
`;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-render-'));
  await writeIn(dir, 'pipelines/deploy.ts', DEFINITIONS);
  const compiled = await runCli(['compile', 'pipelines/deploy.ts'], { cwd: dir });
  expect(compiled).toMatchObject({ code: 0 });
}, 60_000);
afterAll(async () => cleanup?.());

const TEST_SCRIPT = 'pipeline.stages.build.spec.execution.steps.test.spec.source.spec.script';

describe('render from the compiled output', () => {
  it('merges an overlay of two input sets in its order: the later wins, and its <+input> leaves the earlier value', async () => {
    const result = await render('deploy', '--input-set', 'prod_overlay', '--set', `${TEST_SCRIPT}=npm test`);
    expect(result.stderr).toBe(
      'pipeline "deploy" (out/pipelines/default/web/deploy.yaml) with input sets base (from overlay prod_overlay), prod (from overlay prod_overlay) and 1 --set value: 5 runtime inputs: 5 given\n',
    );
    expect(result.code).toBe(0);
    // env from prod (later), tag from base (prod's <+input> gives nothing), region from base over its default.
    expect(result.stdout).toContain(
      [
        '  variables:',
        '    - name: env',
        '      type: String',
        '      value: prod',
        '    - name: region',
        '      type: String',
        '      value: us-east-1',
        '    - name: tag',
        '      type: String',
        '      value: v1',
        '    - name: team',
        '      type: String',
        '      value: core',
      ].join('\n'),
    );
    expect(result.stdout).toMatch(/identifier: prepare\n(?:.*\n)*? {18}timeout: 5m\n {14}- parallel:/);
    expect(result.stdout).toMatch(/script: npm test\n/);
    expect(result.stdout).not.toContain('<+input>');
  });

  it('refuses a runtime input left unsatisfied, at its place in the pipeline, and runs one with a default by it', async () => {
    const result = await render('web/deploy', '-i', 'prod');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('value: eu-west-1');
    const file = 'out/pipelines/default/web/deploy.yaml';
    const lines = result.stderr.split('\n').filter((line) => line.includes('[error unsatisfied-input]'));
    expect(lines.map((line) => line.replace(/^(\S+):\d+:\d+ {2}/, '$1  '))).toEqual([
      `${file}  pipeline "deploy": runtime input pipeline.variables.tag gets no value (no input set or --set gives one) and has no default [error unsatisfied-input]`,
      `${file}  pipeline "deploy" > stage "build" > step "prepare": runtime input pipeline.stages.build.spec.execution.steps.prepare.timeout gets no value (no input set or --set gives one) and has no default [error unsatisfied-input]`,
      `${file}  pipeline "deploy" > stage "build" > step "test": runtime input ${TEST_SCRIPT} gets no value (no input set or --set gives one) and has no default [error unsatisfied-input]`,
    ]);
    expect(result.stderr).toContain(
      `hint: give it a value in an input set, or with --set pipeline.variables.tag=VALUE, or a default in the pipeline: <+input>.default(VALUE)`,
    );
    expect(result.stderr).toMatch(/: 5 runtime inputs: 1 given, 1 by default, 3 unsatisfied\n$/);
  });

  it('refuses a value outside allowedValues and one its regex does not match, at the value in the input set', async () => {
    const result = await render('deploy', '-i', 'base', '-i', 'wrong', '--set', `${TEST_SCRIPT}=x`);
    expect(result.code).toBe(1);
    const file = 'out/input-sets/default/web/deploy/wrong.yaml';
    expect(result.stderr).toContain(`${file}:`);
    const found = result.stderr.split('\n').filter((line) => line.includes('[error input-value-not-allowed]'));
    expect(found.map((line) => line.replace(/^\S+:\d+:\d+ {2}/, ''))).toEqual([
      'pipeline "deploy": pipeline.variables.env: "qa" is not among its allowed values dev, staging, prod [error input-value-not-allowed]',
      'pipeline "deploy": pipeline.variables.tag: "release-1" does not match its pattern v[0-9]+ [error input-value-not-allowed]',
    ]);
    expect(found.every((line) => line.startsWith(`${file}:`))).toBe(true);
  });

  it('sets a nested runtime input with --set, and names the closest one for a misspelt name', async () => {
    const set = await render(
      'deploy',
      '-i',
      'prod_overlay',
      '--set',
      'stages.build.spec.execution.steps.prepare.timeout=7m',
      '--set',
      `${TEST_SCRIPT}=make`,
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/identifier: prepare\n(?:.*\n)*? {18}timeout: 7m\n {14}- parallel:/);
    const typo = await render(
      'deploy',
      '-i',
      'prod_overlay',
      '--set',
      'pipeline.stages.build.spec.execution.steps.prepare.timout=7m',
      '--set',
      `${TEST_SCRIPT}=make`,
    );
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(
      '--set: pipeline "deploy" has no runtime input pipeline.stages.build.spec.execution.steps.prepare.timout [error unknown-input]\n    hint: did you mean "pipeline.stages.build.spec.execution.steps.prepare.timeout"?',
    );
  });

  it('draws the stages and steps as a mermaid flowchart: a parallel block fans out, a step group is a subgraph', async () => {
    const result = await render('deploy', '-i', 'prod_overlay', '--set', `${TEST_SCRIPT}=make`, '--format', 'mermaid');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatchInlineSnapshot(`
      "flowchart TD
        subgraph n1["Build (Custom)"]
          direction TB
          n2["Prepare (ShellScript)"]
          n3["Lint (ShellScript)"]
          n4["Test (ShellScript)"]
          subgraph n5["Publish (step group)"]
            direction TB
            n6["Push (ShellScript)"]
          end
          n2 --> n3
          n2 --> n4
          n3 --> n5
          n4 --> n5
        end
        subgraph n7["Notify (Custom)"]
          direction TB
          n8["Say (ShellScript)"]
        end
        n1 --> n7
      "
    `);
  });

  it('answers --json in the envelope: the result, each runtime input with its source, the diagnostics', async () => {
    const result = await render('deploy', '-i', 'prod_overlay', '--json');
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      pipewright: 1,
      command: 'render',
      ok: false,
      pipeline: { identifier: 'deploy', org: 'default', project: 'web', file: 'out/pipelines/default/web/deploy.yaml' },
      inputSets: [
        { identifier: 'base', file: 'out/input-sets/default/web/deploy/base.yaml', overlay: 'prod_overlay' },
        { identifier: 'prod', file: 'out/input-sets/default/web/deploy/prod.yaml', overlay: 'prod_overlay' },
      ],
      format: 'yaml',
    });
    expect(json.inputs).toEqual([
      {
        name: 'pipeline.variables.env',
        status: 'given',
        input: '<+input>.allowedValues(dev,staging,prod)',
        value: 'prod',
        from: 'input set "prod"',
        location: expect.objectContaining({
          file: 'out/input-sets/default/web/deploy/prod.yaml',
          line: expect.any(Number),
          column: expect.any(Number),
        }),
      },
      {
        name: 'pipeline.variables.region',
        status: 'given',
        input: '<+input>.default(eu-west-1)',
        value: 'us-east-1',
        from: 'input set "base"',
        location: expect.objectContaining({
          file: 'out/input-sets/default/web/deploy/base.yaml',
          line: expect.any(Number),
          column: expect.any(Number),
        }),
      },
      {
        name: 'pipeline.variables.tag',
        status: 'given',
        input: '<+input>.regex(v[0-9]+)',
        value: 'v1',
        from: 'input set "base"',
        location: expect.objectContaining({
          file: 'out/input-sets/default/web/deploy/base.yaml',
          line: expect.any(Number),
          column: expect.any(Number),
        }),
      },
      {
        name: 'pipeline.stages.build.spec.execution.steps.prepare.timeout',
        status: 'given',
        input: '<+input>',
        value: '5m',
        from: 'input set "base"',
        location: expect.objectContaining({
          file: 'out/input-sets/default/web/deploy/base.yaml',
          line: expect.any(Number),
          column: expect.any(Number),
        }),
      },
      { name: TEST_SCRIPT, status: 'unsatisfied', input: '<+input>' },
    ]);
    expect(json.diagnostics).toEqual([
      expect.objectContaining({
        code: 'unsatisfied-input',
        severity: 'error',
        file: 'out/pipelines/default/web/deploy.yaml',
        path: expect.arrayContaining(['script']),
      }),
    ]);
    expect(json.output).toContain('value: prod');
  });

  it('names an unknown input set with the closest one, and a pipeline name several projects share as a usage error', async () => {
    const unknown = await render('deploy', '-i', 'prd');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain(
      'input set "prd" of pipeline "deploy" is not found in out [error unknown-input-set]\n    hint: did you mean "prod"?',
    );
    const missing = await render('nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('pipeline "nope" is not in out [error unknown-pipeline]');
    await writeIn(
      dir,
      'pipelines/twins.ts',
      `import { custom, pipeline, shell } from 'pipewright';\n` +
        ['a', 'b']
          .map(
            (project) =>
              `export const ${project} = pipeline({ identifier: 'twin', project: '${project}' }).stage(custom({ identifier: 's' }).step(shell({ identifier: 'x', script: 'echo', timeout: '1m' })));\n`,
          )
          .join(''),
    );
    expect(await runCli(['compile', 'pipelines/twins.ts', '-o', 'out2'], { cwd: dir })).toMatchObject({ code: 0 });
    const twins = await render('twin', '--out', 'out2');
    expect(twins).toMatchObject({ code: 2, stdout: '' });
    expect(twins.stderr).toContain(
      'pipewright: pipeline "twin" is in more than one project: default/a/twin, default/b/twin [error usage]\n    hint: name it as project/identifier or org/project/identifier, e.g. default/a/twin',
    );
    expect(await render('b/twin', '--out', 'out2')).toMatchObject({
      code: 0,
      stderr: 'pipeline "twin" (out2/pipelines/default/b/twin.yaml): 0 runtime inputs\n',
    });
  }, 30_000);
});

describe('render from YAML files', () => {
  const pipelineYaml = [
    'pipeline:',
    '  identifier: ship',
    '  name: ship',
    '  orgIdentifier: default',
    '  projectIdentifier: web',
    '  variables:',
    '    - name: env',
    '      type: String',
    '      value: <+input>',
    '    - name: approver',
    '      type: String',
    '      value: <+input>.executionInput()',
    '  stages:',
    '    - stage:',
    '        identifier: go',
    '        name: go',
    '        type: Custom',
    '        spec:',
    '          execution:',
    '            steps:',
    ...shellStepLines('hi', 'echo hi'),
    '',
  ].join('\n');
  const inputSetYaml = (identifier: string, env: string) =>
    `inputSet:\n  identifier: ${identifier}\n  name: ${identifier}\n  orgIdentifier: default\n  projectIdentifier: web\n  pipeline:\n    identifier: ship\n    variables:\n      - name: env\n        type: String\n        value: ${env}\n`;
  const overlayYaml =
    'overlayInputSet:\n  identifier: both\n  name: both\n  orgIdentifier: default\n  projectIdentifier: web\n  pipelineIdentifier: ship\n  inputSetReferences:\n    - one\n    - two\n    - three\n';

  beforeAll(async () => {
    await writeIn(dir, '.harness/ship.yaml', pipelineYaml);
    await writeIn(dir, '.harness/one.yaml', inputSetYaml('one', 'first'));
    await writeIn(dir, '.harness/two.yaml', inputSetYaml('two', 'second'));
    await writeIn(dir, '.harness/both.yaml', overlayYaml);
  });

  it('reads a pipeline and an input set given by path; an execution input is left to be asked during the run', async () => {
    const result = await render('.harness/ship.yaml', '--input-set', '.harness/two.yaml');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '      value: second\n    - name: approver\n      type: String\n      value: <+input>.executionInput()\n',
    );
    expect(result.stderr).toBe(
      'pipeline "ship" (.harness/ship.yaml) with input set two: 2 runtime inputs: 1 given, 1 asked during the run\n',
    );
  });

  it("finds an overlay's input sets beside it, and refuses, at the reference, one that is not there", async () => {
    const result = await render('.harness/ship.yaml', '-i', '.harness/both.yaml');
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      [
        '.harness/both.yaml:10:7  overlay input set "both" refers to input set "three", which is not found [error unknown-input-set]',
        "    hint: keep the input set's YAML file beside the overlay's, or compile both",
        '',
        '1 error',
        '',
      ].join('\n'),
    );
    await writeIn(dir, '.harness/three.yaml', inputSetYaml('three', '<+input>'));
    const merged = await render('.harness/ship.yaml', '-i', '.harness/both.yaml');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('value: second\n');
    expect(merged.stderr).toContain(
      'with input sets one (from overlay both), two (from overlay both), three (from overlay both)',
    );
  });
});

describe('render: --set typed by the variable, rollback steps in the diagram', () => {
  const rolloutYaml = [
    'pipeline:',
    '  identifier: rollout',
    '  name: rollout',
    '  orgIdentifier: default',
    '  projectIdentifier: web',
    '  variables:',
    '    - name: replicas',
    '      type: Number',
    '      value: <+input>',
    '    - name: label',
    '      type: String',
    '      value: <+input>',
    '  stages:',
    '    - stage:',
    '        identifier: ship',
    '        name: Ship',
    '        type: Custom',
    '        spec:',
    '          execution:',
    '            steps:',
    '              - step: { identifier: apply, name: Apply, type: ShellScript, timeout: 1m, spec: { shell: Bash, onDelegate: true, source: { type: Inline, spec: { script: echo apply } } } }',
    '              - stepGroup:',
    '                  identifier: checks',
    '                  name: Checks',
    '                  steps:',
    '                    - step: { identifier: probe, name: Probe, type: ShellScript, timeout: 1m, spec: { shell: Bash, onDelegate: true, source: { type: Inline, spec: { script: echo probe } } } }',
    '                  rollbackSteps:',
    '                    - step: { identifier: unprobe, name: Unprobe, type: ShellScript, timeout: 1m, spec: { shell: Bash, onDelegate: true, source: { type: Inline, spec: { script: echo unprobe } } } }',
    '            rollbackSteps:',
    '              - step: { identifier: undo, name: Undo, type: ShellScript, timeout: 1m, spec: { shell: Bash, onDelegate: true, source: { type: Inline, spec: { script: echo undo } } } }',
    '',
  ].join('\n');

  beforeAll(async () => {
    await writeIn(dir, 'rollout/rollout.yaml', rolloutYaml);
  });

  it('writes a number given to a Number variable as a number, and text given to a String variable as text', async () => {
    const result = await render('rollout/rollout.yaml', '--set', 'variables.replicas=5', '--set', 'variables.label=5');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '    - name: replicas\n      type: Number\n      value: 5\n    - name: label\n      type: String\n      value: "5"\n',
    );
    const expression = await render(
      'rollout/rollout.yaml',
      '--set',
      'variables.replicas=<+pipeline.sequenceId>',
      '--set',
      'variables.label=x',
    );
    expect(expression.code).toBe(0);
    expect(expression.stdout).toContain('      type: Number\n      value: <+pipeline.sequenceId>\n');
  });

  it('refuses text that is not a number for a Number variable, naming the variable and the fix', async () => {
    const result = await render(
      'rollout/rollout.yaml',
      '--set',
      'variables.replicas=five',
      '--set',
      'variables.label=x',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '--set: pipeline.variables.replicas is a Number variable: "five" is not a number [error input-value-wrong-type]\n    hint: write a number (--set pipeline.variables.replicas=5) or an expression (<+pipeline.sequenceId>)',
    );
    expect(result.stderr).not.toContain('unexpected error');
  });

  it('draws rollback steps apart, in a Rollback subgraph reached on failure, and ends with a newline', async () => {
    const result = await render(
      'rollout/rollout.yaml',
      '--set',
      'variables.replicas=1',
      '--set',
      'variables.label=x',
      '--format',
      'mermaid',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatchInlineSnapshot(`
      "flowchart TD
        subgraph n1["Ship (Custom)"]
          direction TB
          n2["Apply (ShellScript)"]
          subgraph n3["Checks (step group)"]
            direction TB
            n4["Probe (ShellScript)"]
            subgraph n5["Rollback"]
              direction TB
              n6["Unprobe (ShellScript)"]
            end
            n4 -. on failure .-> n5
          end
          n2 --> n3
          subgraph n7["Rollback"]
            direction TB
            n8["Undo (ShellScript)"]
          end
          n3 -. on failure .-> n7
        end
      "
    `);
    expect(result.stdout.endsWith('end\n')).toBe(true);
  });
});
