import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '../src/core/diagnostics.js';
import { inputSkeleton } from '../src/run/input-skeleton.js';
import { runInputs, typedAssignments } from '../src/run/run-inputs.js';
import { parse } from 'yaml';

const pipeline = {
  pipeline: {
    identifier: 'deploy',
    name: 'Deploy',
    stages: [
      {
        stage: {
          identifier: 'prod',
          name: 'Prod',
          type: 'Custom',
          spec: {
            execution: {
              steps: [
                {
                  step: {
                    identifier: 'script',
                    name: 'Script',
                    type: 'ShellScript',
                    timeout: '<+input>.default(10m)',
                    spec: { shell: 'Bash', source: { type: 'Inline', spec: { script: 'echo hi' } } },
                  },
                },
              ],
            },
          },
        },
      },
    ],
    variables: [
      { name: 'env', type: 'String', value: '<+input>.allowedValues(dev,prod)' },
      { name: 'tag', type: 'String', value: '<+input>.regex(v[0-9]+)' },
      { name: 'replicas', type: 'Number', value: '<+input>' },
      { name: 'fixed', type: 'String', value: 'x' },
    ],
  },
};

/** The diagnostics a DiagnosticError carries, as `code: message`. */
function refused(call: () => unknown): string[] {
  try {
    call();
  } catch (error) {
    if (error instanceof DiagnosticError) return error.diagnostics.map((d) => `${d.code}: ${d.message}`);
    throw error;
  }
  throw new Error('expected the inputs to be refused');
}

const values = (...pairs: Array<[string, unknown]>) => pairs.map(([name, value]) => ({ name, value }));

describe('inputSkeleton: a pipeline cut down to its runtime inputs', () => {
  it('keeps what leads to each <+input>, and the identity of each list element on the way', () => {
    expect(inputSkeleton(pipeline)).toEqual({
      pipeline: {
        identifier: 'deploy',
        name: 'Deploy',
        stages: [
          {
            stage: {
              identifier: 'prod',
              name: 'Prod',
              type: 'Custom',
              spec: {
                execution: {
                  steps: [
                    {
                      step: {
                        identifier: 'script',
                        name: 'Script',
                        type: 'ShellScript',
                        timeout: '<+input>.default(10m)',
                      },
                    },
                  ],
                },
              },
            },
          },
        ],
        variables: [
          { name: 'env', type: 'String', value: '<+input>.allowedValues(dev,prod)' },
          { name: 'tag', type: 'String', value: '<+input>.regex(v[0-9]+)' },
          { name: 'replicas', type: 'Number', value: '<+input>' },
        ],
      },
    });
  });

  it('is undefined for a pipeline without runtime inputs', () => {
    expect(
      inputSkeleton({ pipeline: { identifier: 'p', variables: [{ name: 'a', type: 'String', value: 'x' }] } }),
    ).toBe(undefined);
  });
});

describe('runInputs: the inputs of a run checked before it starts', () => {
  it('merges input sets in order, then the values, and gives the runtime-input YAML with numbers typed', () => {
    const inputSet = (identifier: string, env: string) => ({
      identifier,
      document: {
        inputSet: {
          identifier,
          pipeline: { identifier: 'deploy', variables: [{ name: 'env', type: 'String', value: env }] },
        },
      },
    });
    const checked = runInputs(
      pipeline,
      'deploy',
      [inputSet('a', 'dev'), inputSet('b', 'prod')],
      undefined,
      values(['variables.tag', 'v12'], ['pipeline.variables.replicas', '3']),
    );
    const sent = parse(checked.yaml) as typeof pipeline;
    expect(sent.pipeline.variables).toEqual([
      { name: 'env', type: 'String', value: 'prod' },
      { name: 'tag', type: 'String', value: 'v12' },
      { name: 'replicas', type: 'Number', value: 3 },
    ]);
    // The step's timeout runs with its default.
    expect(sent.pipeline.stages[0]!.stage.spec.execution.steps[0]!.step.timeout).toBe('10m');
    expect(checked.inputs.map((input) => `${input.name} ${input.status}`)).toEqual([
      'pipeline.stages.prod.spec.execution.steps.script.timeout default',
      'pipeline.variables.env given',
      'pipeline.variables.tag given',
      'pipeline.variables.replicas given',
    ]);
  });

  it("refuses every input left without a value, and values outside allowedValues or the regex, with render's messages", () => {
    expect(
      refused(() =>
        runInputs(pipeline, 'deploy', [], undefined, values(['variables.env', 'qa'], ['variables.tag', 'latest'])),
      ),
    ).toEqual([
      'input-value-not-allowed: pipeline.variables.env: "qa" is not among its allowed values dev, prod',
      'input-value-not-allowed: pipeline.variables.tag: "latest" does not match its pattern v[0-9]+',
      'unsatisfied-input: runtime input pipeline.variables.replicas gets no value (no input set or --set gives one) and has no default',
    ]);
  });

  it('refuses a name that is no runtime input (a fixed variable too), suggesting the closest', () => {
    const problems = refused(() =>
      runInputs(
        pipeline,
        'deploy',
        [],
        undefined,
        values(
          ['variables.env', 'dev'],
          ['variables.tga', 'v1'],
          ['variables.replicas', '1'],
          ['variables.fixed', 'y'],
        ),
      ),
    );
    expect(problems).toContain('unknown-input: pipeline "deploy" has no runtime input variables.tga');
    expect(problems).toContain('unknown-input: pipeline "deploy" has no runtime input variables.fixed');
  });

  it('sends nothing for a pipeline without runtime inputs, and still refuses a --set for it', () => {
    const bare = { pipeline: { identifier: 'p', stages: [] } };
    expect(runInputs(bare, 'p', [], undefined, [])).toEqual({ yaml: '', inputs: [] });
    expect(refused(() => runInputs(bare, 'p', [], undefined, values(['variables.x', '1'])))).toEqual([
      'unknown-input: pipeline "p" has no runtime input variables.x',
    ]);
  });
});

describe('typedAssignments: --set values typed by the declared input type', () => {
  it("makes a Number variable's value a number and leaves text inputs as text", () => {
    expect(typedAssignments(pipeline, values(['variables.replicas', ' 4 '], ['variables.env', '7']))).toEqual(
      values(['variables.replicas', 4], ['variables.env', '7']),
    );
  });

  it('refuses text that is not a number for a Number variable', () => {
    expect(refused(() => typedAssignments(pipeline, values(['variables.replicas', 'many'])))).toEqual([
      'input-value-not-allowed: pipeline.variables.replicas: "many" is not a number, and the variable is of type Number',
    ]);
    expect(refused(() => typedAssignments(pipeline, values(['variables.replicas', ''])))).toHaveLength(1);
  });
});
