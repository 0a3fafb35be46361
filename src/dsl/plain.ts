import { isExpr } from './expr.js';
import { MAX_NESTING } from '../core/nesting.js';
import { setField } from '../core/own-field.js';

/**
 * Deep copy of user-given data as plain wire values: expressions become their text, `undefined`
 * entries are dropped. Keeps the builder's frozen state out of the emitted document.
 */
export function plain(value: unknown): unknown {
  try {
    return copy(value, 1);
  } catch (error) {
    // Thrown again from here, with a shallow stack, so the error points at the user's call rather than deep in here.
    if (error === TOO_DEEP) throw new TypeError(`a value nests more than ${MAX_NESTING} levels deep; flatten it`);
    throw error;
  }
}

const TOO_DEEP = Symbol('too deep');

function copy(value: unknown, depth: number): unknown {
  if (isExpr(value)) return value.text;
  if (typeof value !== 'object' || value === null) return value;
  // Counted on the way down: hostile nesting stops here long before the stack would.
  if (depth > MAX_NESTING) throw TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
  const out: Record<string, unknown> = {};
  // A loop over the keys, not Object.entries: no array of pairs for every object of every builder's options.
  for (const key in value) {
    const entry = (value as Record<string, unknown>)[key];
    if (entry !== undefined && Object.hasOwn(value, key)) setField(out, key, copy(entry, depth + 1));
  }
  return out;
}
