import { describe, expect, it } from 'vitest';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { input, inputSet, pipeline, shell, stage, type AnyResource } from '../src/index.js';

/** An input set is checked against its pipeline when both are compiled, as the platform checks it on save. */
const compileAll = (...resources: AnyResource[]) =>
  buildAndValidate(resources.map((resource, index) => ({ resource, file: 'x.ts', exportName: `r${index}` }))).diagnostics;

const deploy = pipeline({ identifier: 'deploy', project: 'web', variables: { env: input(), region: input().default('eu'), team: 'core' } }).stage(
  stage({ identifier: 'build', type: 'Custom' }).step(shell({ identifier: 'hi', script: 'echo hi', timeout: input() })),
);
const variable = (name: string, value: string) => ({ name, type: 'String', value });
const stageValues = { stages: [{ stage: { identifier: 'build', type: 'Custom', spec: { execution: { steps: [{ step: { identifier: 'hi', type: 'ShellScript', timeout: '5m' } }] } } } }] };

describe('input sets against their pipeline', () => {
  it('accepts values for exactly the runtime inputs, matched by stage, step and variable identity', () => {
    const values = inputSet({ identifier: 'prod', pipeline: deploy, values: { variables: [variable('env', 'prod')], ...stageValues } });
    expect(compileAll(deploy, values)).toEqual([]);
  });

  it('refuses a value for a field the pipeline fixes', () => {
    const values = inputSet({ identifier: 'prod', pipeline: deploy, values: { variables: [variable('env', 'prod'), variable('team', 'other')], ...stageValues } });
    const found = compileAll(deploy, values);
    expect(found.map((d) => [d.code, d.severity, d.message])).toEqual([
      ['input-set-not-an-input', 'error', 'variables.1.value is not a runtime input of pipeline "deploy"'],
    ]);
    expect(found[0]!.path).toEqual(['inputSet', 'pipeline', 'variables', 1, 'value']);
  });

  it('warns about a runtime input without a default that it leaves unset', () => {
    const values = inputSet({ identifier: 'prod', pipeline: deploy, values: { variables: [variable('env', 'prod')] } });
    expect(compileAll(deploy, values).map((d) => [d.code, d.severity, d.message])).toEqual([
      ['input-set-missing-input', 'warning', 'leaves stages.0.stage.spec.execution.steps.0.step.timeout of pipeline "deploy" unset, and it has no default'],
    ]);
  });

  it('checks nothing when the pipeline is not compiled (it exists on the platform)', () => {
    expect(compileAll(inputSet({ identifier: 'prod', pipeline: 'deploy', project: 'web', values: { anything: 1 } }))).toEqual([]);
  });
});
