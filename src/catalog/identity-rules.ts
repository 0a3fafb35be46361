import { printable } from '../core/printable.js';
import type { ResourceKey } from './resource-key.js';

/**
 * The platform's identifier rule (pipelines, stages, steps, orgs, projects, every resource's `identifier`):
 * ../shared/reference/platform-facts-1.md §96, the schema's pattern in 400 places. The one copy: the schema's
 * `identifier`, the scope rule, render's inputs and the paths below all read it.
 */
export const IDENTIFIER_PATTERN = /^[a-zA-Z_][0-9a-zA-Z_]{0,127}$/;

/** A template's version label (platform-facts-2.md, the template row of the endpoint table). */
export const VERSION_LABEL_PATTERN = /^[0-9a-zA-Z][^\s/&]{0,127}$/;

/**
 * Whether `value` is an identifier of a resource of `kind`: the rule above, and a connector's may also hold `$`
 * (platform-facts-1.md §96: the connector schema's `^[a-zA-Z_][a-zA-Z0-9_$]{0,127}$`).
 */
const isIdentifierOf = (kind: ResourceKey['kind'], value: string): boolean =>
  IDENTIFIER_PATTERN.test(kind === 'connector' ? value.replaceAll('$', '_') : value);

/** Text from outside in a message: quoted as JSON (`"` and `\\` escaped), then made `printable`. */
const quoted = (text: string): string => printable(JSON.stringify(text));

/** The parts of an identity, each a folder or file name somewhere. */
export type IdentityField = 'identifier' | 'org' | 'project' | 'parent' | 'versionLabel';
const IDENTITY_FIELDS: readonly IdentityField[] = ['identifier', 'org', 'project', 'parent', 'versionLabel'];

/**
 * Why a resource's identity is not one the platform allows, or undefined when it is. Each part of it becomes a
 * folder or file name (`outputPathOf`, import's module paths), so it is checked before any path is built:
 * `../../x`, `a/b`, a NUL or a 300-character identifier never reaches the file system. `fields` limits the check
 * to some parts (import takes a placeholder org or project as validate does, under a safe folder name).
 */
export function identityProblem(
  key: ResourceKey,
  fields: readonly IdentityField[] = IDENTITY_FIELDS,
): string | undefined {
  const parts: Array<[IdentityField, string | undefined, boolean]> = [
    ['identifier', key.identifier, isIdentifierOf(key.kind, key.identifier)],
    ['org', key.org, key.org === undefined || IDENTIFIER_PATTERN.test(key.org)],
    ['project', key.project, key.project === undefined || IDENTIFIER_PATTERN.test(key.project)],
    ['parent', key.parent, key.parent === undefined || IDENTIFIER_PATTERN.test(key.parent)],
    ['versionLabel', key.version, key.version === undefined || VERSION_LABEL_PATTERN.test(key.version)],
  ];
  const bad = parts.filter(([field, , ok]) => !ok && fields.includes(field));
  if (bad.length === 0) return undefined;
  return bad
    .map(([field, value]) =>
      field === 'versionLabel'
        ? `versionLabel ${quoted(value!)} is not a version label (a letter or digit, then up to 127 characters other than blanks, / and &)`
        : `${field} ${quoted(value!.length > 140 ? `${value!.slice(0, 140)}…` : value!)} is not an identifier (a letter or _, then up to 127 letters, digits or _)`,
    )
    .join('; ');
}
