import { describe, expect, it } from 'vitest';
import { custom, input, pipeline, wait } from '../src/index.js';

/** Variables as the platform writes them: each type with its `default`, `required`, `description`, `metadata`. */
const variablesOf = (variables: Parameters<typeof pipeline>[0]['variables']) =>
  (
    pipeline({ identifier: 'p', project: 'web', variables })
      .stage(custom({ identifier: 's' }))
      .step(wait({ identifier: 'w', duration: '1m' }))
      .toDocument() as {
      pipeline: { variables: unknown[] };
    }
  ).pipeline.variables;

describe('typed variables', () => {
  it('writes default, required, description and metadata per variable type', () => {
    expect(
      variablesOf({
        region: { type: 'String', value: input(), default: 'eu', required: true, description: 'where' },
        replicas: { type: 'Number', value: input(), default: 3 },
        token: { type: 'Secret', value: input(), default: 'account.token', metadata: 'm' },
      }),
    ).toEqual([
      { name: 'region', type: 'String', description: 'where', required: true, value: '<+input>', default: 'eu' },
      { name: 'replicas', type: 'Number', value: '<+input>', default: 3 },
      { name: 'token', type: 'Secret', value: '<+input>', default: 'account.token', metadata: 'm' },
    ]);
  });

  it('writes no default, required or metadata when they are left out', () => {
    expect(variablesOf({ a: 'x', n: 2, s: { type: 'String', value: 'y' } })).toEqual([
      { name: 'a', type: 'String', value: 'x' },
      { name: 'n', type: 'Number', value: 2 },
      { name: 's', type: 'String', value: 'y' },
    ]);
  });
});
