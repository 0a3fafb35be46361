import { referenceText } from '../catalog/resource-key.js';
import { type AnyResource, type Reference, isResource } from '../ir/node.js';
import type { DocPath } from '../core/document-path.js';
import { isExpr, valueText, type Value } from './expr.js';
import { fieldOf, setField } from '../core/own-field.js';

/** A value that may be a builder (a connector, a service, ...): records the reference and returns its wire text. */
export function refValue(
  value: Value | AnyResource | undefined,
  references: Reference[],
  path: DocPath,
): string | undefined {
  if (value === undefined) return undefined;
  if (isResource(value)) {
    references.push({ path, target: value });
    return referenceText({ identifier: value.identifier, ...value.scope });
  }
  return valueText(value);
}

/**
 * Deep copy of user-given wire data: expressions become their text, `undefined` entries are dropped, and a
 * connector (or other resource) builder becomes its scoped reference, recorded in `references` (paths inside
 * the node's body) so compile can check it.
 */
export function wireValue(value: unknown, references: Reference[], path: DocPath): unknown {
  return wireAt(value, references, [...path]);
}

/** `wireValue` with the path kept as one stack, copied only where a reference is found (most data holds none). */
function wireAt(value: unknown, references: Reference[], path: Array<string | number>): unknown {
  if (isExpr(value)) return value.text;
  if (isResource(value)) return refValue(value, references, [...path]);
  if (Array.isArray(value))
    return value.map((item, index) => {
      path.push(index);
      const wire = wireAt(item, references, path);
      path.pop();
      return wire;
    });
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const entry = (value as Record<string, unknown>)[key];
      if (entry === undefined) continue;
      path.push(key);
      setField(out, key, wireAt(entry, references, path));
      path.pop();
    }
    return out;
  }
  return value;
}

/** Keys in the platform's customary order first, then any others in the order given. */
export function ordered<T extends Record<string, unknown>>(object: T, order: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const key of order) if (fieldOf(object, key) !== undefined) setField(out, key, object[key]);
  for (const [key, value] of Object.entries(object))
    if (!Object.hasOwn(out, key) && value !== undefined) setField(out, key, value);
  return out as T;
}
