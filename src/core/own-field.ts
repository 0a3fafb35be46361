/*
 * Fields of data copied from outside (YAML, platform answers, options built from them): a key named `__proto__`
 * is a field like any other. Assigned with `=`, it would set the copy's prototype instead and the field would be
 * lost; read with `[]`, it finds Object.prototype on every object.
 */

/** Sets the own field `key` of `target` to `value`, `__proto__` included. */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The own field `key` of `source`, or undefined (never an inherited one such as `__proto__`). */
export const fieldOf = (source: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(source, key) ? source[key] : undefined;

/** `Object.assign` for data: each own enumerable field of `source` set on `target`, `__proto__` as a field. */
export function assignFields(target: Record<string, unknown>, source: object): void {
  for (const [key, value] of Object.entries(source)) setField(target, key, value);
}
