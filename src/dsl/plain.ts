import { isExpr } from './expr.js';

/**
 * Deep copy of user-given data as plain wire values: expressions become their text, `undefined`
 * entries are dropped. Keeps the builder's frozen state out of the emitted document.
 */
export function plain(value: unknown): unknown {
  if (isExpr(value)) return value.text;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) if (entry !== undefined) out[key] = plain(entry);
    return out;
  }
  return value;
}
