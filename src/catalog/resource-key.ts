import { safeFileName } from '../core/safe-file-name.js';
import { dottedPath, valueAt } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';
import { kindRow, type ResourceKind } from './kinds.js';

/**
 * The identity of one resource on the platform: kind, scope, owner, version and identifier (the table of kinds
 * says which a kind has). Compile, validate, import and publish all read it with `keyOf` and print it with the
 * renderings below, so that a resource compile writes is the one validate checks and publish sends.
 */
export interface ResourceKey {
  readonly kind: ResourceKind;
  readonly org?: string;
  readonly project?: string;
  /** The owning resource's identifier, for kinds with a `parent` (an input set's pipeline). */
  readonly parent?: string;
  /** The version, for kinds with a `version` (a template's `versionLabel`). */
  readonly version?: string;
  readonly identifier: string;
}

/** What a reference names: an identifier in a scope (the account when `org` is absent, an org without `project`). */
export type ReferenceTarget = Pick<ResourceKey, 'identifier' | 'org' | 'project'>;
/** The scope a reference is read from: the referring document's org and project. */
export type ReferenceScope = Pick<ResourceKey, 'org' | 'project'>;

/** Java's `Double.toString`: at least one digit after the point, scientific (`9.7E88`) outside [10^-3, 10^7). */
function javaDoubleText(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  const size = Math.abs(value);
  if (size >= 1e-3 && size < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/**
 * An identity field's value as the platform reads it. The platform parses YAML into typed nodes (YAML 1.1
 * tags, decoded by Jackson) and a String field gets the node's text: `versionLabel: 1` is "1", `yes` is
 * "true", `0123` is "83", `1.5e3` is "1500.0" (../shared/reference/platform-facts-2.md §1.2, the plain-scalar
 * table's last column, "into a String field via the tree", and §1.1 "Execution also goes through the tree").
 * Our reader already gives those values (yaml/platform-scalars.ts); what it cannot keep is the tag, so a float
 * written whole (`1.0`) reads here as "1" where the platform has "1.0". Empty text and null are no value.
 */
export function platformText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 1e21 ? String(value) : javaDoubleText(value);
  return undefined;
}

/**
 * The identity a resource's body declares (the fields under its root key), as the table of kinds says and as
 * the platform reads the fields (`platformText`); undefined without an identifier. The one computation of it:
 * builders, lift (so validate), import and publish all key resources with it.
 */
export function keyOf(kind: ResourceKind, body: unknown): ResourceKey | undefined {
  if (!isRecord(body)) return undefined;
  const identifier = platformText(body.identifier);
  if (identifier === undefined) return undefined;
  const row = kindRow(kind);
  const org = platformText(body.orgIdentifier);
  const project = row.scopes.includes('project') ? platformText(body.projectIdentifier) : undefined;
  // The table's fields are dotted paths inside the body (`pipeline.identifier`).
  const parent = row.parent ? platformText(valueAt(body, dottedPath(row.parent))) : undefined;
  const version = row.version ? platformText(valueAt(body, dottedPath(row.version))) : undefined;
  return {
    kind,
    identifier,
    ...(org !== undefined ? { org } : {}),
    ...(project !== undefined ? { project } : {}),
    ...(parent !== undefined ? { parent } : {}),
    ...(version !== undefined ? { version } : {}),
  };
}

/** The key as a map key: equal for two keys exactly when they name one resource. */
export const keyId = (key: ResourceKey): string =>
  [key.kind, key.org ?? '', key.project ?? '', key.parent ?? '', key.identifier, key.version ?? ''].join('/');

/** The key in words, for messages: `template "echo" (version 1) in project default/web`. */
export const describeKey = (key: ResourceKey): string =>
  `${kindRow(key.kind).label} "${key.identifier}"${key.version ? ` (version ${key.version})` : ''}${key.parent ? ` of "${key.parent}"` : ''} in ${key.project ? `project ${key.org}/${key.project}` : key.org ? `org ${key.org}` : 'the account'}`;

/**
 * The short name reports print: `org/project/identifier`, `_` for a missing scope, the parent before the
 * identifier and the version after it (`default/shop/deploy/nightly`, `default/shop/checks@v1`).
 */
export function keyName(key: ResourceKey): string {
  const own = `${key.parent ? `${key.parent}/` : ''}${key.identifier}${key.version ? `@${key.version}` : ''}`;
  return key.kind === 'project' ? `${key.org}/${own}` : `${key.org ?? '_'}/${key.project ?? '_'}/${own}`;
}

/**
 * Where a resource's YAML goes inside the output folder: `<folder>/<org or _>/<project or _>/[<parent>/]<id>[/<version>].yaml`,
 * without the project segment for kinds that cannot live in a project (projects themselves).
 */
export function outputPathOf(key: ResourceKey): string {
  const row = kindRow(key.kind);
  const names = [key.org ?? '_'];
  if (row.scopes.includes('project')) names.push(key.project ?? '_');
  if (row.parent) names.push(key.parent ?? '_');
  names.push(key.identifier);
  if (row.version) names.push(key.version ?? '_');
  // Each name is one file or folder name that every file system holds (`CON` is `_CON~<hash>`): the rule is
  // safeFileName's, so the manifest's `file` beside the key records the mapping.
  const last = names.length - 1;
  return [row.folder, ...names.map((name, at) => safeFileName(name, at === last ? '.yaml' : '').name)].join('/');
}

/** Whether a document in scope `from` can refer to `target`: one of its own project, its org, or the account. */
export const canSee = (from: ReferenceScope, target: ReferenceTarget): boolean =>
  target.org === undefined ||
  (target.org === from.org && (target.project === undefined || target.project === from.project));

const ACCOUNT = 'account.';
const ORG = 'org.';

/**
 * The text the platform reads as a reference to `target` (a connector, service, template, ... written where
 * an identifier is expected): `account.x` for an account-level resource, `org.x` for an org-level one, `x` for
 * one of the referring document's own project (platform-facts-2.md §6: "References to higher scopes use
 * `org.<id>` / `account.<id>`"; a bare `x` is read in the referrer's own scope). The prefixed form reads the same
 * from every scope that can see the target, so it is the one text written for it: a builder does not know which
 * document will use it. Given `from`, undefined when that scope cannot see the target.
 */
export function referenceText(target: ReferenceTarget): string;
export function referenceText(target: ReferenceTarget, from: ReferenceScope): string | undefined;
export function referenceText(target: ReferenceTarget, from?: ReferenceScope): string | undefined {
  if (from && !canSee(from, target)) return undefined;
  if (target.org === undefined) return `${ACCOUNT}${target.identifier}`;
  if (target.project === undefined) return `${ORG}${target.identifier}`;
  return target.identifier;
}

/**
 * What a reference's text names, read from a document in scope `from`: `account.x` the account's x, `org.x`
 * the x of `from`'s org, `x` the x of `from`'s own scope. Undefined for what names nothing the platform
 * resolves before a run: an expression (`<+input>`), an empty identifier, `org.x` read where there is no org.
 */
export function parseReference(text: string, from: ReferenceScope): ReferenceTarget | undefined {
  if (text.startsWith('<+')) return undefined;
  const [identifier, scope] = text.startsWith(ACCOUNT)
    ? [text.slice(ACCOUNT.length), {}]
    : text.startsWith(ORG)
      ? [text.slice(ORG.length), from.org === undefined ? undefined : { org: from.org }]
      : [
          text,
          {
            ...(from.org !== undefined ? { org: from.org } : {}),
            ...(from.project !== undefined ? { project: from.project } : {}),
          },
        ];
  return identifier === '' || scope === undefined ? undefined : { identifier, ...scope };
}
