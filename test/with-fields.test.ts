import { describe, expect, expectTypeOf, it } from 'vitest';
import { custom, pipeline, shell, stepGroup, type StepGroupBuilder } from '../src/index.js';

/**
 * `.withFields()`: the escape for one wire field no option models, so that field alone is written as given and
 * the node keeps its typed builder (import uses it instead of turning the whole node into raw.*).
 */
const echo = shell({ identifier: 'echo', script: 'echo hi' });
const group = stepGroup({ identifier: 'g', steps: [echo] });
const stepsOf = (p: { toDocument(): unknown }) =>
  (p.toDocument() as { pipeline: { stages: { stage: { spec: { execution: { steps: unknown[] } } } }[] } }).pipeline
    .stages[0]!.stage.spec.execution.steps;

describe('withFields', () => {
  it('writes a field no option models into the node, beside the typed fields', () => {
    const p = pipeline({ identifier: 'p', project: 'web' })
      .stage(custom({ identifier: 'b' }))
      .step(group.withFields({ spec: {} }))
      .withFields({ notificationRules: [{ name: 'n', identifier: 'n', conditions: [{ type: 'FailureCount' }] }] });
    expect(stepsOf(p)[0]).toEqual({
      stepGroup: {
        name: 'g',
        identifier: 'g',
        steps: [
          stepsOf(
            pipeline({ identifier: 'q', project: 'web' })
              .stage(custom({ identifier: 'b' }))
              .step(echo),
          )[0],
        ],
        spec: {},
      },
    });
    expect((p.toDocument() as { pipeline: Record<string, unknown> }).pipeline.notificationRules).toEqual([
      { name: 'n', identifier: 'n', conditions: [{ type: 'FailureCount' }] },
    ]);
  });

  it('leaves the builder it was called on as it was (builders are immutable)', () => {
    group.withFields({ spec: {} });
    const p = pipeline({ identifier: 'p', project: 'web' })
      .stage(custom({ identifier: 'b' }))
      .step(group);
    expect(stepsOf(p)[0]).not.toHaveProperty('stepGroup.spec');
  });

  it('refuses a field the builder writes from its own options', () => {
    const p = pipeline({ identifier: 'p', project: 'web' })
      .stage(custom({ identifier: 'b' }))
      .step(group.withFields({ identifier: 'other' }));
    expect(() => p.toDocument()).toThrow(
      '.withFields(): "identifier" is written by the builder\'s own options; give it through the option instead',
    );
  });

  it('refuses fields that are not an object (JavaScript callers)', () => {
    expect(() => group.withFields(['spec'] as never)).toThrow('.withFields(fields): give an object of wire fields');
    expect(() => group.withFields(null as never)).toThrow('.withFields(fields): give an object of wire fields');
  });

  it('keeps the builder type, so the chain goes on typed', () => {
    expectTypeOf(group.withFields({ spec: {} })).toEqualTypeOf(group);
    expectTypeOf(group.withFields).parameter(0).toEqualTypeOf<{ readonly [field: string]: unknown }>();
    expectTypeOf<ReturnType<StepGroupBuilder<'ShellScript'>['withFields']>>().toEqualTypeOf<
      StepGroupBuilder<'ShellScript'>
    >();
    // @ts-expect-error fields are an object, not a field's name
    expect(() => group.withFields('spec')).toThrow('give an object of wire fields');
  });
});
