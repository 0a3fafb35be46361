/** Words JavaScript reserves: a generated name must not be one. */
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await eval arguments'.split(
    ' ',
  ),
);

/** `deploy_to_prod` -> `deployToProd`; a valid, non-reserved JavaScript name. */
export function variableName(identifier: string, fallback: string): string {
  const camel = identifier.replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^_+/, '');
  const name = /^[A-Za-z_$][\w$]*$/.test(camel) ? camel : `${fallback}${camel.replace(/[^\w$]/g, '_')}`;
  return RESERVED.has(name) ? `${name}${fallback[0]!.toUpperCase()}${fallback.slice(1)}` : name;
}
