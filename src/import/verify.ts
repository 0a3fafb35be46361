import { isDeepStrictEqual } from 'node:util';
import { newBuildContext } from '../dsl/index.js';
import type { Code } from './code.js';
import { evaluate } from './evaluate.js';

type Produce = (built: unknown) => unknown;

export const asStepElement: Produce = (built) =>
  (built as { toElement: (c: unknown, p: unknown[]) => unknown }).toElement(newBuildContext(), []);
export const asStageElement = asStepElement;
export const asDocument: Produce = (built) =>
  (built as { toDocument: (c: unknown) => unknown }).toDocument(newBuildContext());

/**
 * The first candidate whose evaluation reproduces `expected` exactly (as data; key order aside).
 * A candidate that throws, or differs in any field, is passed over, so what is written is always lossless.
 */
export function firstExact(
  candidates: ReadonlyArray<Code | undefined>,
  expected: unknown,
  produce: Produce,
): Code | undefined {
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      if (isDeepStrictEqual(produce(evaluate(candidate)), expected)) return candidate;
    } catch {
      // Not reproducible with this builder: try the next, more general one.
    }
  }
  return undefined;
}
