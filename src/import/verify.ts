import { lower } from '../ir/lower.js';
import type { IrNode } from '../ir/node.js';
import { withOrigin, type Code } from './code.js';
import { evaluate } from './evaluate.js';
import { attempt } from './options.js';

type Produce = (built: unknown) => unknown;

/**
 * What a builder lowers to: its node's wire element (a step, a stage) or document (a resource). A call with an
 * option its builder does not know (or without one it needs) is refused here: its types would refuse it too, and
 * finding that out from the type check costs generating, checking and formatting the module a second time.
 */
const lowered: Produce = (built) => {
  const node = (built as { toNode: () => IrNode }).toNode();
  if (node.issues.length > 0) throw new Error(node.issues[0]!.message);
  return lower(node);
};
export const asStepElement = lowered;
export const asStageElement = lowered;
export const asDocument = lowered;

/**
 * Equal as data, key order aside, as `isDeepStrictEqual` judges plain data (numbers by Object.is, objects of one
 * prototype, the same own keys): without its generality, which was a fifth of verifying a large import.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], other[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.hasOwn(b, key) || !sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  return true;
}

/** Whether evaluating the candidate reproduces `expected` exactly (as data; key order aside). */
export function isExact(candidate: Code, expected: unknown, produce: Produce): boolean {
  // Builders record their call site from the stack, for diagnostics at the user's code; code evaluated here
  // has no user call site, and capturing the frames was a tenth of an import's time.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return sameData(produce(evaluate(candidate)), expected);
  } catch {
    // Not reproducible with this builder: the caller tries the next, more general one.
    return false;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The first candidate whose evaluation reproduces `expected` exactly (as data; key order aside).
 * A candidate that throws, or differs in any field, is passed over, so what is written is always lossless.
 */
export function firstExact(
  candidates: ReadonlyArray<Code | undefined>,
  expected: unknown,
  produce: Produce,
): Code | undefined {
  return candidates.find((candidate) => candidate !== undefined && isExact(candidate, expected, produce));
}

/**
 * YAML nodes whose code must start at a later fallback level, because the code chosen at an earlier level
 * did not type-check (the builders accept at run time what their types refuse, e.g. a field the schema lacks).
 */
export type Demotions = WeakMap<object, number>;

/** A candidate built on demand; undefined when the builder cannot express the node. */
export type Candidate = () => Code | undefined;

/**
 * The code for one YAML node: the first exact candidate from the node's fallback level on, else `last` (raw
 * data, always exact). The result records the node and its level, so a type error in it can demote the node.
 */
export function choose(
  node: object,
  candidates: readonly Candidate[],
  expected: unknown,
  produce: Produce,
  last: () => Code,
  demoted: Demotions,
): Code {
  for (let level = demoted.get(node) ?? 0; level < candidates.length; level++) {
    const candidate = attempt(candidates[level]!);
    if (candidate && isExact(candidate, expected, produce)) return withOrigin(candidate, { nodes: [node], level });
  }
  return withOrigin(last(), { nodes: [node], level: candidates.length, last: true });
}
