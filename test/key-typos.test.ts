import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { custom, pipeline, step } from 'pipewright';
import { schemaAt } from '../src/check/schema-position.js';
import { validateDocument } from '../src/check/check-document.js';

/** The keys `schemaAt` finds modelled at `value`, and how many times it asked for the written value (to parse). */
function follow(schema: z.ZodType, value: unknown) {
  let parses = 0;
  const at = schemaAt(schema, value, () => {
    parses++;
    return value;
  });
  return { keys: at && 'fields' in at ? Object.keys(at.fields.shape) : undefined, parses };
}

describe('following a union without parsing where the value decides', () => {
  const alpha = z.looseObject({ kind: z.literal('a'), alpha: z.string() });
  const beta = z.looseObject({ kind: z.enum(['b', 'bb']), beta: z.string() });
  const union = z.union([alpha, beta]);

  it('takes the first map option without parsing when its tag is the only one that fits', () => {
    expect(follow(union, { kind: 'a', alpha: 'x' })).toEqual({ keys: ['kind', 'alpha'], parses: 0 });
  });

  it('parses the one option a later tag leaves, and takes it when it parses', () => {
    expect(follow(union, { kind: 'bb', beta: 'x' })).toEqual({ keys: ['kind', 'beta'], parses: 1 });
  });

  it('falls back to the first map option when the option its tag leaves does not parse', () => {
    expect(follow(union, { kind: 'b', beta: 1 })).toEqual({ keys: ['kind', 'alpha'], parses: 1 });
  });

  it('falls back to the first map option without parsing when no tag fits', () => {
    expect(follow(union, { kind: 'c' })).toEqual({ keys: ['kind', 'alpha'], parses: 0 });
  });

  it('parses when the tags do not decide (an optional tag left out)', () => {
    const loose = z.union([
      z.looseObject({ kind: z.literal('a').optional(), alpha: z.string() }),
      z.looseObject({ kind: z.literal('b').optional(), beta: z.string() }),
    ]);
    expect(follow(loose, { beta: 'x' })).toEqual({ keys: ['kind', 'beta'], parses: 1 });
  });

  it('sees through lazy options: a map against an object-or-expression union is the object, parsed or not', () => {
    const objectOrText = z.union([z.lazy(() => alpha), z.string()]);
    expect(follow(objectOrText, { kind: 'a', alpha: 'x' })).toEqual({ keys: ['kind', 'alpha'], parses: 0 });
    expect(follow(objectOrText, { kind: 'a', alpha: 1, alhpa: 'x' })).toEqual({ keys: ['kind', 'alpha'], parses: 0 });
  });

  it('takes the list option for a list', () => {
    const listOrText = z.union([z.string(), z.array(alpha)]);
    expect(schemaAt(listOrText, [], () => [])).toEqual({ element: alpha });
  });
});

describe('misspelt keys under a union of the catalogue', () => {
  it('finds one in a String variable of a shell step (Number, Secret and String variables are one union)', () => {
    const variables = [
      { name: 'N', type: 'Number', value: 1 },
      { name: 'A', type: 'String', value: 'x', descripton: 'y' },
    ];
    const shellStep = step({
      identifier: 'sh',
      type: 'ShellScript',
      timeout: '1m',
      spec: {
        shell: 'Bash',
        onDelegate: true,
        source: { type: 'Inline', spec: { script: 'echo' } },
        environmentVariables: variables,
      },
    });
    const document = pipeline({ identifier: 'p', project: 'web' })
      .stage(custom({ identifier: 's' }).step(shellStep))
      .toDocument();
    expect(validateDocument('pipeline', document).map((d) => [d.code, d.path.join('.'), d.hint])).toEqual([
      [
        'unknown-key',
        'pipeline.stages.0.stage.spec.execution.steps.0.step.spec.environmentVariables.1.descripton',
        'did you mean "description"?',
      ],
    ]);
  });
});
