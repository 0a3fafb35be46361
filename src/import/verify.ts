import { fieldOf } from '../core/own-field.js';
import { withoutCallSitesNow } from '../core/source-site.js';
import { lower } from '../ir/lower.js';
import type { IrNode } from '../ir/node.js';
import { withOrigin, type Code } from './code.js';
import { evaluate, evaluatesLike } from './evaluate.js';
import { NotExpressible } from './options.js';

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
  for (const key of keys)
    if (!Object.hasOwn(b, key) || !sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  return true;
}

/** A value as a short text for a message. */
const brief = (value: unknown): string => {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/**
 * The first place where `built` and `expected` differ, in words: what a builder did not reproduce.
 * @public bench/import-roundtrip.mjs imports it from dist/.
 */
export function firstDifference(
  built: unknown,
  expected: unknown,
  at: ReadonlyArray<string | number> = [],
): string | undefined {
  if (sameData(built, expected)) return undefined;
  const where = at.length ? at.join('.') : 'the node';
  if (
    typeof built === 'object' &&
    typeof expected === 'object' &&
    built !== null &&
    expected !== null &&
    Array.isArray(built) === Array.isArray(expected)
  ) {
    if (Array.isArray(built) && Array.isArray(expected) && built.length !== expected.length)
      return `${where} has ${expected.length} items, the builder writes ${built.length}`;
    for (const key of new Set([...Object.keys(expected), ...Object.keys(built)])) {
      const inner = firstDifference(
        fieldOf(built as Record<string, unknown>, key),
        fieldOf(expected as Record<string, unknown>, key),
        [...at, Array.isArray(expected) ? Number(key) : key],
      );
      if (inner) return inner;
    }
  }
  if (built === undefined) return `the builder has no option for ${where}`;
  if (expected === undefined) return `the builder adds ${where} (${brief(built)}) the YAML does not have`;
  return `the builder writes ${where} as ${brief(built)}, the YAML has ${brief(expected)}`;
}

/**
 * Why evaluating the candidate does not reproduce `expected` exactly (as data; key order aside): the error the
 * builder threw, or the first difference; undefined when it does.
 */
function mismatch(candidate: Code, expected: unknown, produce: Produce): string | undefined {
  // Builders record their call site from the stack, for diagnostics at the user's code; code evaluated here
  // has no user call site, and capturing the frames was a tenth of an import's time (and the stacks of the
  // errors a builder throws for a candidate it cannot take are never read).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let built: unknown;
  try {
    built = withoutCallSitesNow(() => produce(evaluate(candidate)));
  } catch (error) {
    // Not reproducible with this builder: the caller tries the next, more general one.
    return error instanceof Error ? error.message : String(error);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return sameData(built, expected)
    ? undefined
    : (firstDifference(built, expected) ?? 'the builder writes it differently');
}

/** Whether evaluating the candidate reproduces `expected` exactly (as data; key order aside). */
export const isExact = (candidate: Code, expected: unknown, produce: Produce): boolean =>
  mismatch(candidate, expected, produce) === undefined;

/**
 * YAML nodes whose code must start at a later fallback level, because the code chosen at an earlier level
 * did not type-check (the builders accept at run time what their types refuse, e.g. a field the schema lacks),
 * with the type error that demoted it.
 */
export type Demotions = WeakMap<object, { readonly level: number; readonly why: string }>;

/** A candidate built on demand; undefined when the builder cannot express the node. */
export type Candidate = () => Code | undefined;

/**
 * The code for one YAML node: the first exact candidate from the node's fallback level on, else `last` (raw
 * data, always exact). The result records the node, its level and why the more specific candidates were
 * passed over, so a type error in it can demote the node and a fallback can be reported.
 */
export function choose(
  node: object,
  candidates: readonly Candidate[],
  expected: unknown,
  produce: Produce,
  last: () => Code,
  demoted: Demotions,
): Code {
  const demotion = demoted.get(node);
  let why = demotion?.why;
  for (let level = demotion?.level ?? 0; level < candidates.length; level++) {
    let candidate: Code | undefined;
    try {
      candidate = candidates[level]!();
    } catch (error) {
      if (!(error instanceof NotExpressible)) throw error;
      why ??= error.message;
      continue;
    }
    if (!candidate) continue;
    const missed = mismatch(candidate, expected, produce);
    if (missed === undefined) {
      const chosen = withOrigin(candidate, { nodes: [node], level, ...(why ? { why } : {}) });
      evaluatesLike(chosen, candidate);
      return chosen;
    }
    why ??= missed;
  }
  return withOrigin(last(), { nodes: [node], level: candidates.length, last: true, ...(why ? { why } : {}) });
}
