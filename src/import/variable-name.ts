/**
 * Names a generated module must not declare: JavaScript's reserved words, and the globals whose meaning code reads
 * by name (a module's `const undefined` or `const eval` would change what the words mean there, or not compile).
 */
const RESERVED = new Set(
  [
    'break case catch class const continue debugger default delete do else enum export extends false finally for',
    'function if import in instanceof new null return super switch this throw true try typeof var void while with',
    'yield let static implements interface package private protected public await',
    'eval arguments undefined NaN Infinity globalThis global process require module exports __dirname __filename',
    'Object Function Array String Number Boolean Symbol BigInt Promise Proxy Reflect JSON Math Date RegExp Error',
  ]
    .join(' ')
    .split(' '),
);

/** ASCII letters, digits, `_` and `$`, not starting with a digit: a name in any JavaScript. */
const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * `deploy_to_prod` -> `deployToProd`; a valid, non-reserved JavaScript name whatever the identifier holds. A run of
 * `_` is tried from its first `_` only: from every `_` of it, `____...` would be read to its end once per `_`.
 */
export function variableName(identifier: string, fallback: string): string {
  const camel = identifier.replace(/(?<!_)_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^_+/, '');
  const name = PLAIN_NAME.test(camel) ? camel : `${fallback}${camel.replace(/[^\w$]/g, '_')}`;
  return RESERVED.has(name) ? `${name}${fallback[0]!.toUpperCase()}${fallback.slice(1)}` : name;
}
