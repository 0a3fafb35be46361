import { isExpr } from './expr.js';
import { MAX_NESTING, nestingDepth } from './nesting.js';

/**
 * Deep copy of user-given data as plain wire values: expressions become their text, `undefined`
 * entries are dropped. Keeps the builder's frozen state out of the emitted document.
 */
export function plain(value: unknown): unknown {
  // Checked up front, with a shallow stack, so the error points at the user's call rather than deep in here.
  if (typeof value === 'object' && value !== null && nestingDepth(value) > MAX_NESTING)
    throw new TypeError(`a value nests more than ${MAX_NESTING} levels deep; flatten it`);
  return copy(value);
}

function copy(value: unknown): unknown {
  if (isExpr(value)) return value.text;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy);
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) out[key] = copy(entry);
  return out;
}
