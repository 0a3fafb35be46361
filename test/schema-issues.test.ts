import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { schemaDiagnostics } from '../src/check/schema-issues.js';

/** The diagnostics of `value` against `schema`, held under `field` of a document. */
const diagnose = (schema: z.ZodType, value: unknown) => {
  const document = { field: value };
  const result = z.object({ field: schema }).safeParse(document);
  expect(result.success).toBe(false);
  return schemaDiagnostics(document, result.error!.issues).map(({ code, message, hint, suggestion }) => ({
    code,
    message,
    hint,
    suggestion,
  }));
};

describe('schema issues, read from zod codes and parameters', () => {
  it("replaces zod's own wording of a short list with one made of its minimum, and keeps a schema's own message", () => {
    expect(diagnose(z.array(z.string()).min(2), ['a'])).toEqual([
      { code: 'too-small', message: 'field needs at least 2 items', hint: undefined, suggestion: undefined },
    ]);
    expect(diagnose(z.array(z.string()).min(1, { error: 'list at least one thing' }), [])).toEqual([
      { code: 'too-small', message: 'field: list at least one thing', hint: undefined, suggestion: undefined },
    ]);
  });

  it('says a short string is empty, or how long it must be', () => {
    expect(diagnose(z.string().min(1), '')[0]!.message).toBe('field must not be empty');
    expect(diagnose(z.string().min(3), 'ab')[0]!.message).toBe('field needs at least 3 characters');
  });

  it('suggests the allowed value closest to a misspelt one, as data and in the hint', () => {
    expect(diagnose(z.enum(['Manual', 'Automatic']), 'Manaul')).toEqual([
      {
        code: 'invalid-value',
        message: 'field "Manaul" is not one of Manual, Automatic',
        hint: 'did you mean "Manual"?',
        suggestion: 'Manual',
      },
    ]);
    expect(diagnose(z.enum(['Manual', 'Automatic']), 'Other')[0]!.suggestion).toBeUndefined();
  });
});
