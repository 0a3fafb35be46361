import { describe, expect, it } from 'vitest';
import { synth } from 'pipewright/testing';
import { custom, pipeline, project, shell, type FailureStrategyOption } from 'pipewright';

const web = project({ identifier: 'web' });
const withStrategies = (failureStrategies: readonly FailureStrategyOption[]) =>
  pipeline({ identifier: 'p', project: web })
    .stage(custom({ identifier: 's' }))
    .step(shell({ identifier: 'x', script: 'echo', failureStrategies }));
const strategiesOf = (result: ReturnType<typeof synth>) =>
  (result.documents.find((d) => d.kind === 'pipeline')?.data as any).pipeline.stages[0].stage.spec.execution.steps[0]
    .step.failureStrategies;

describe('failure strategies in a builder', () => {
  it('takes the wire form, as the YAML has it, and writes it unchanged', () => {
    const result = synth([web, withStrategies([{ onFailure: { errors: ['Timeout'], action: { type: 'Abort' } } }])]);
    expect(result.diagnostics).toEqual([]);
    expect(strategiesOf(result)).toEqual([{ onFailure: { errors: ['Timeout'], action: { type: 'Abort' } } }]);
  });

  it('writes the short form as the same wire form', () => {
    const result = synth([web, withStrategies([{ errors: 'Timeout', action: 'Abort' }])]);
    expect(strategiesOf(result)).toEqual([{ onFailure: { errors: ['Timeout'], action: { type: 'Abort' } } }]);
  });

  it('names both forms when a strategy misses its action', () => {
    const result = synth([web, withStrategies([{ errors: 'Timeout' } as never])]);
    expect(result.diagnostics.map((d) => [d.code, d.message, d.hint])).toEqual([
      [
        'missing-field',
        'failureStrategies[0].onFailure.action is required (expected object)',
        "a failure strategy is onFailure: { errors: [AllErrors], action: { type: Abort } }; a builder also takes { errors: 'AllErrors', action: 'Abort' }",
      ],
    ]);
  });
});
