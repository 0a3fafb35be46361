import { kindOfDocument, kindRow, type KindKey, type ResourceKind } from '../catalog/kinds.js';
import { documentSchemas } from '../schema/index.js';
import type { Diagnostic } from './diagnostics.js';
import { MAX_NESTING, nestingDepth } from '../dsl/nesting.js';
import { pathKey } from './document-path.js';
import { isNode as isRecord } from './rule-kit.js';
import { documentRules } from './rules.js';
import { placeholders } from './rules-placeholders.js';
import { scopeWarnings } from './rules-scope.js';
import { schemaDiagnostics } from './schema-issues.js';
import { secretWarnings } from './secret-scan.js';

/** The kind of a document is its root key (the table of kinds); undefined when it has none. */
export const documentKind = (document: unknown): ResourceKind | undefined => kindOfDocument(document);

/** Schema and per-document rules; locations are added by the caller (builder sites or YAML ranges). */
export function validateDocument(kind: ResourceKind, document: unknown): Diagnostic[] {
  if (nestingDepth(document) > MAX_NESTING)
    return [
      {
        code: 'too-deep',
        severity: 'error',
        message: `the document nests more than ${MAX_NESTING} levels deep`,
        path: [kindRow(kind).rootKey],
        subject: kindRow(kind).label,
        hint: 'flatten the step groups; real pipelines nest a few levels at most',
      },
    ];
  const result = documentSchemas[kind].safeParse(document);
  const schemaFound = result.success ? [] : schemaDiagnostics(document, result.error.issues);
  const refused = new Set(schemaFound.map((d) => pathKey(d.path)));
  const unsubstituted = isRecord(document) ? placeholders(document, refused) : { diagnostics: [], identifiers: new Set<string>() };
  // A placeholder the schema refuses (an identifier's pattern): one diagnostic, the one that says why.
  const schema = schemaFound.filter((d) => !unsubstituted.identifiers.has(pathKey(d.path)));
  return withoutEchoes([...schema, ...documentRules(kind, document), ...unsubstituted.diagnostics, ...(isRecord(document) ? scopeWarnings(document, kind) : []), ...secretWarnings(document)]);
}

/**
 * One mistake, one diagnostic: a misspelt required key (`scipt`) is reported as the typo with its
 * suggestion, not also as the required `script` missing beside it.
 */
function withoutEchoes(diagnostics: Diagnostic[]): Diagnostic[] {
  const typoTargets = new Set(
    diagnostics
      .filter((d) => d.code === 'unknown-key' && d.hint)
      .map((d) => JSON.stringify([...d.path.slice(0, -1), /"([^"]+)"/.exec(d.hint!)?.[1]])),
  );
  if (typoTargets.size === 0) return diagnostics;
  return diagnostics.filter((d) => d.code !== 'missing-field' || !typoTargets.has(JSON.stringify(d.path)));
}

export type ResourceKey = KindKey;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A dotted path inside a record: `pipeline.identifier`. */
const fieldAt = (body: Record<string, unknown>, dotted: string): unknown =>
  dotted.split('.').reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), body);

/** The identity of a resource on the platform: kind, scope, owner, version and identifier (the table of kinds says which). */
export function resourceKey(kind: ResourceKind, document: unknown): ResourceKey | undefined {
  const row = kindRow(kind);
  const body = isRecord(document) ? document[row.rootKey] : undefined;
  if (!isRecord(body) || typeof body.identifier !== 'string') return undefined;
  const org = text(body.orgIdentifier);
  const project = row.scopes.includes('project') ? text(body.projectIdentifier) : undefined;
  const parent = row.parent ? text(fieldAt(body, row.parent)) : undefined;
  const version = row.version ? text(fieldAt(body, row.version)) : undefined;
  return {
    kind,
    identifier: body.identifier,
    ...(org ? { org } : {}),
    ...(project ? { project } : {}),
    ...(parent ? { parent } : {}),
    ...(version ? { version } : {}),
  };
}

export const describeKey = (key: ResourceKey): string =>
  `${kindRow(key.kind).label} "${key.identifier}"${key.version ? ` (version ${key.version})` : ''}${key.parent ? ` of "${key.parent}"` : ''} in ${key.project ? `project ${key.org}/${key.project}` : key.org ? `org ${key.org}` : 'the account'}`;

export const keyString = (key: ResourceKey): string =>
  [key.kind, key.org ?? '', key.project ?? '', key.parent ?? '', key.identifier, key.version ?? ''].join('/');
