import { describe, expect, it } from 'vitest';
import { call, lit, obj, withOrigin } from '../src/import/code.js';
import { evaluate } from '../src/import/evaluate.js';
import { choose } from '../src/import/verify.js';

/** Import verifies candidate code by running it against the real builders (`evaluate`). */
describe('evaluating candidate code', () => {
  const wait = () => call('wait', [obj({ identifier: lit('w'), duration: lit('1m') })]);

  it('builds with the real builders', () => {
    const built = evaluate(wait()) as { toNode: () => { element: unknown } };
    expect(typeof built.toNode).toBe('function');
  });

  it('builds a verified child once: the code chosen for a node evaluates to the builder its candidate built', () => {
    const node = {};
    const expected = { built: true };
    const candidate = wait();
    const chosen = choose(
      node,
      [() => candidate],
      expected,
      () => expected,
      () => lit(null),
      new WeakMap(),
    );
    expect(chosen).not.toBe(candidate);
    // The parent's evaluation of its children reuses the builder, which is frozen: nothing can change it.
    const first = evaluate(candidate);
    expect(evaluate(chosen)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Code that was not verified is built afresh each time it is new code.
    expect(evaluate(withOrigin(wait(), { nodes: [node], level: 0 }))).not.toBe(first);
  });
});
