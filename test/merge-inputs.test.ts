import { describe, expect, it } from 'vitest';
import { fieldsOf } from '../src/check/input-fields.js';
import { assignmentSource, inputSetSource, mergeInputs, type ValueSource } from '../src/check/merge-inputs.js';
import { runtimeInputSpec, splitAllowedValues, validatorProblem } from '../src/check/runtime-input.js';
import { valueAt } from '../src/core/document-path.js';

// The merge render does, against the platform's rules (docs/render.md cites harness-core for each).

const variable = (name: string, value: unknown) => ({ name, type: 'String', value });
const step = (identifier: string, timeout: unknown) => ({ step: { identifier, type: 'ShellScript', timeout } });
const stage = (identifier: string, steps: unknown[]) => ({
  stage: { identifier, type: 'Custom', spec: { execution: { steps } } },
});
const pipelineOf = (body: Record<string, unknown>) => ({
  pipeline: { identifier: 'deploy', projectIdentifier: 'web', orgIdentifier: 'default', ...body },
});
const inputSetOf = (identifier: string, values: Record<string, unknown>) => ({
  inputSet: { identifier, pipeline: { identifier: 'deploy', ...values } },
});
const source = (identifier: string, values: Record<string, unknown>): ValueSource =>
  inputSetSource(`input set "${identifier}"`, inputSetOf(identifier, values));

const deploy = pipelineOf({
  variables: [variable('env', '<+input>'), variable('region', '<+input>.default(eu)'), variable('team', 'core')],
  stages: [
    stage('build', [step('prepare', '<+input>'), { parallel: [step('lint', '<+input>'), step('test', '10m')] }]),
  ],
});

describe('fields keyed as the platform keys them', () => {
  it('names stages, steps and variables by identity, never by position, as expressions do', () => {
    const fields = fieldsOf(deploy.pipeline, ['pipeline']).filter(
      (field) => field.leaf && String(field.value).startsWith('<+input>'),
    );
    expect(fields.map((field) => [field.key, field.name])).toEqual([
      ['pipeline/variables/[name:env]/value', 'pipeline.variables.env'],
      ['pipeline/variables/[name:region]/value', 'pipeline.variables.region'],
      [
        'pipeline/stages/stage[identifier:build]/spec/execution/steps/step[identifier:prepare]/timeout',
        'pipeline.stages.build.spec.execution.steps.prepare.timeout',
      ],
      [
        'pipeline/stages/stage[identifier:build]/spec/execution/steps/parallel/step[identifier:lint]/timeout',
        'pipeline.stages.build.spec.execution.steps.lint.timeout',
      ],
    ]);
    expect(fields[3]!.path).toEqual([
      'pipeline',
      'stages',
      0,
      'stage',
      'spec',
      'execution',
      'steps',
      1,
      'parallel',
      0,
      'step',
      'timeout',
    ]);
  });

  it('decides per element: a service of a multi-service stage by its serviceRef, looked into; a header by its key, as one piece', () => {
    const fields = fieldsOf(
      { values: [{ serviceRef: 'api', serviceInputs: '<+input>' }], headers: [{ key: 'a', value: '<+input>' }] },
      ['pipeline'],
    );
    expect(fields.filter((field) => field.leaf).map((field) => [field.key, field.name])).toEqual([
      ['pipeline/values/[serviceRef:api]/serviceRef', 'pipeline.values.api.serviceRef'],
      ['pipeline/values/[serviceRef:api]/serviceInputs', 'pipeline.values.api.serviceInputs'],
      ['pipeline/headers/[key:a]/key', 'pipeline.headers.a.key'],
      ['pipeline/headers/[key:a]/value', 'pipeline.headers.a.value'],
    ]);
  });

  it('keys a list with an element without identity (a list of strings) as one value', () => {
    const mixed = [{ step: { identifier: 'a' } }, { note: 'no identity' }];
    const fields = fieldsOf({ tags: ['a', 'b'], delegateSelectors: [], steps: mixed }, ['pipeline']);
    expect(fields.filter((field) => field.leaf).map((field) => [field.key, field.value])).toEqual([
      ['pipeline/tags', ['a', 'b']],
      ['pipeline/delegateSelectors', []],
      ['pipeline/steps', mixed],
    ]);
  });
});

describe('merging input sets into a pipeline', () => {
  it('applies sources in order, the later winning, and a later bare <+input> giving nothing', () => {
    const base = source('base', {
      variables: [variable('env', 'dev'), variable('region', 'us')],
      stages: [stage('build', [step('prepare', '5m')])],
    });
    const prod = source('prod', { variables: [variable('env', 'prod'), variable('region', '<+input>')] });
    const { document, inputs, findings } = mergeInputs(deploy, [base, prod]);
    expect(valueAt(document, ['pipeline', 'variables'])).toEqual([
      variable('env', 'prod'),
      variable('region', 'us'),
      variable('team', 'core'),
    ]);
    expect(inputs.map((input) => [input.name, input.status, input.value, input.source])).toEqual([
      ['pipeline.variables.env', 'given', 'prod', 1],
      ['pipeline.variables.region', 'given', 'us', 0],
      ['pipeline.stages.build.spec.execution.steps.prepare.timeout', 'given', '5m', 0],
      ['pipeline.stages.build.spec.execution.steps.lint.timeout', 'unsatisfied', undefined, undefined],
    ]);
    expect(findings.map(({ diagnostic, source }) => [diagnostic.code, diagnostic.path, source])).toEqual([
      [
        'unsatisfied-input',
        ['pipeline', 'stages', 0, 'stage', 'spec', 'execution', 'steps', 1, 'parallel', 0, 'step', 'timeout'],
        undefined,
      ],
    ]);
    // The pipeline itself is left as it was.
    expect(valueAt(deploy, ['pipeline', 'variables', 0, 'value'])).toBe('<+input>');
  });

  it('finds a step of a parallel block wherever the input set puts the block', () => {
    const values = source('s', {
      stages: [stage('build', [{ parallel: [step('lint', '1m')] }, step('prepare', '2m')])],
    });
    const { inputs } = mergeInputs(deploy, [values]);
    expect(inputs.filter((input) => input.status === 'given').map((input) => [input.name, input.value])).toEqual([
      ['pipeline.stages.build.spec.execution.steps.prepare.timeout', '2m'],
      ['pipeline.stages.build.spec.execution.steps.lint.timeout', '1m'],
    ]);
  });

  it('runs an input left with a default with it, and leaves an execution input to be asked', () => {
    const pipeline = pipelineOf({
      variables: [
        variable('region', '<+input>.default(eu).allowedValues(eu,us)'),
        variable('note', '<+input>.executionInput()'),
      ],
    });
    const { document, inputs, findings } = mergeInputs(pipeline, []);
    expect(valueAt(document, ['pipeline', 'variables', 0, 'value'])).toBe('eu');
    expect(valueAt(document, ['pipeline', 'variables', 1, 'value'])).toBe('<+input>.executionInput()');
    expect(inputs.map((input) => input.status)).toEqual(['default', 'execution']);
    expect(findings).toEqual([]);
  });

  it('fills an input the pipeline takes whole with the map of the last source that has any of it', () => {
    const pipeline = pipelineOf({
      stages: [
        {
          stage: {
            identifier: 'cd',
            type: 'Deployment',
            spec: { service: { serviceRef: 'web', serviceInputs: '<+input>' } },
          },
        },
      ],
    });
    const inputs = (tag: string) => ({
      serviceDefinition: { type: 'Kubernetes', spec: { artifacts: { primary: { spec: { tag } } } } },
    });
    const at = (id: string, tag: string) =>
      source(id, {
        stages: [
          { stage: { identifier: 'cd', type: 'Deployment', spec: { service: { serviceInputs: inputs(tag) } } } },
        ],
      });
    const { document } = mergeInputs(pipeline, [at('a', 'v1'), at('b', '<+input>.default(v2)')]);
    // Whole, from b, with its own runtime input then defaulted: no deep merge with a.
    expect(valueAt(document, ['pipeline', 'stages', 0, 'stage', 'spec', 'service', 'serviceInputs'])).toEqual(
      inputs('v2'),
    );
  });

  it('adds what a source has under service or environment that the pipeline lacks', () => {
    const pipeline = pipelineOf({
      stages: [{ stage: { identifier: 'cd', type: 'Deployment', spec: { service: { serviceRef: '<+input>' } } } }],
    });
    const values = source('a', {
      stages: [
        {
          stage: {
            identifier: 'cd',
            type: 'Deployment',
            spec: { service: { serviceRef: 'web', serviceInputs: { x: 1 } }, other: 'no' },
          },
        },
      ],
    });
    const { document } = mergeInputs(pipeline, [values]);
    expect(valueAt(document, ['pipeline', 'stages', 0, 'stage', 'spec'])).toEqual({
      service: { serviceRef: 'web', serviceInputs: { x: 1 } },
    });
  });

  it('refuses a value outside allowedValues and one the regex does not match whole, at the value in its input set', () => {
    const pipeline = pipelineOf({
      variables: [
        variable('env', '<+input>.allowedValues(dev,prod)'),
        variable('tag', '<+input>.regex(v\\d+)'),
        variable('ref', '<+input>.regex(v\\d+)'),
      ],
    });
    const values = source('s', {
      variables: [variable('env', 'qa'), variable('tag', 'v1x'), variable('ref', '<+pipeline.sequenceId>')],
    });
    const { findings } = mergeInputs(pipeline, [values]);
    expect(
      findings.map(({ diagnostic, source }) => [diagnostic.code, diagnostic.message, diagnostic.path, source]),
    ).toEqual([
      [
        'input-value-not-allowed',
        'pipeline.variables.env: "qa" is not among its allowed values dev, prod',
        ['inputSet', 'pipeline', 'variables', 0, 'value'],
        0,
      ],
      [
        'input-value-not-allowed',
        'pipeline.variables.tag: "v1x" does not match its pattern v\\d+',
        ['inputSet', 'pipeline', 'variables', 1, 'value'],
        0,
      ],
    ]);
  });

  it('takes --set values by runtime input name, after the input sets', () => {
    const { source: set, unknown } = assignmentSource(deploy, [
      { name: 'stages.build.spec.execution.steps.lint.timeout', value: '3m' },
      { name: 'pipeline.variables.env', value: 'qa' },
      { name: 'pipeline.variables.team', value: 'x' },
    ]);
    expect(unknown).toEqual([{ name: 'pipeline.variables.team', value: 'x' }]);
    const { inputs } = mergeInputs(deploy, [source('base', { variables: [variable('env', 'dev')] }), set]);
    expect(inputs.filter((input) => input.source === 1).map((input) => [input.name, input.value])).toEqual([
      ['pipeline.variables.env', 'qa'],
      ['pipeline.stages.build.spec.execution.steps.lint.timeout', '3m'],
    ]);
  });
});

describe('runtime input validators', () => {
  it('reads the default and the one validator the platform checks, allowedValues before regex', () => {
    expect(runtimeInputSpec('<+input>.regex(a.*).allowedValues(a,b).default(a)')).toEqual({
      default: 'a',
      validator: { kind: 'allowedValues', args: 'a,b' },
      executionInput: false,
    });
    expect(runtimeInputSpec('<+input>.selectOneFrom(a,b).executionInput()')).toEqual({ executionInput: true });
  });

  it("splits allowed values at commas outside \\'...\\' quotes, and checks each part of a value", () => {
    expect(splitAllowedValues("london, \\'new york,ny\\',paris")).toEqual(['london', 'new york,ny', 'paris']);
    const spec = runtimeInputSpec("<+input>.allowedValues(a,b,\\'c,d\\')");
    expect(validatorProblem(spec, 'c,d')).toEqual({ kind: 'allowedValues', rejected: ['c', 'd'] });
    expect(validatorProblem(spec, "\\'c,d\\'")).toBeUndefined();
    expect(validatorProblem(spec, 'a,b')).toBeUndefined();
    expect(validatorProblem(spec, ['a', 'x'])).toEqual({ kind: 'allowedValues', rejected: ['x'] });
  });

  it('skips what it cannot judge: an expression value, an expression among the allowed values', () => {
    expect(
      validatorProblem(runtimeInputSpec('<+input>.allowedValues(a,<+pipeline.variables.x>)'), 'z'),
    ).toBeUndefined();
    expect(validatorProblem(runtimeInputSpec('<+input>.regex(a+)'), '<+trigger.branch>')).toBeUndefined();
  });
});
