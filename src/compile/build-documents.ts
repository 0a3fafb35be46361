import { kindRow } from '../catalog/kinds.js';
import { keyOf, type ResourceKey } from '../catalog/resource-key.js';
import { eachNode, sourceOf } from '../ir/locate.js';
import { lower } from '../ir/lower.js';
import { type IrNode, kindOf, type AnyResource } from '../ir/node.js';
import { type DocPath, describePath } from '../core/document-path.js';
import type { ResourceKind } from '../schema/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { formatLocation, type DiagnosticLocation } from '../core/source-location.js';
import { checkAcross, type AcrossRecord, type AcrossWords } from '../check/check-across.js';
import { runtimeInputs } from '../check/rules-input-sets.js';
import { checkDocument } from '../check/check-document.js';
import { applyRuleSettings, type RuleSettings } from '../check/rule-settings.js';
import { markSuppressed } from '../check/suppressions.js';
import type { SeenInput } from '../check/walk.js';

/** A resource found in the user's modules, with the file and export that produced it. */
export interface FoundResource {
  readonly resource: AnyResource;
  /** Source file, relative to the working directory. */
  readonly file: string;
  readonly exportName: string;
}

export interface BuiltDocument extends FoundResource {
  readonly kind: ResourceKind;
  readonly key: ResourceKey;
  readonly document: unknown;
  /** The resource's IR: call sites, references and option mistakes are on its nodes. */
  readonly node: IrNode;
  /**
   * A pipeline's runtime inputs when they are kept (see `buildEach`): the document check's walk adds them as it
   * passes them.
   */
  readonly inputs?: SeenInput[];
}

/** Where a built document is when none of its nodes knows its call site: its file. */
const fileOf = (built: FoundResource): DiagnosticLocation => ({ file: built.file });

const formatSite = (location: DiagnosticLocation | undefined) => (location ? formatLocation(location) : 'unknown');

/** A diagnostic located at its nearest node's call site; a duplicate step at the `.step()` call that used it. */
const locate = (built: BuiltDocument, diagnostic: Diagnostic): Diagnostic => {
  const { site, use } = sourceOf(built.node, diagnostic.path);
  const defined = diagnostic.location ?? site?.location ?? built.resource.site.location ?? fileOf(built);
  if (diagnostic.code !== 'duplicate-identifier') return { ...diagnostic, location: defined };
  // A duplicate is a problem of where the step is used (the second `.step(check)`), not of its definition.
  const used = use?.location;
  // `.step(shell({...}))` defines the step where it uses it: the definition's column says it already.
  if (!used || (used.file === defined.file && used.line === defined.line)) return { ...diagnostic, location: defined };
  return {
    ...diagnostic,
    location: used,
    hint: `${diagnostic.hint ? `${diagnostic.hint}; ` : ''}the step is defined at ${formatLocation(defined)}`,
  };
};

type Findings = {
  issues: Array<IrNode['issues'][number] & { path: DocPath; node: IrNode }>;
  references: Array<IrNode['references'][number] & { path: DocPath; node: IrNode }>;
};
const findings = new WeakMap<IrNode, Findings>();

/** What the nodes of a document carry: option mistakes and references, at their paths in the document (once per document). */
function nodeFindings(node: IrNode): Findings {
  const known = findings.get(node);
  if (known) return known;
  const issues: Array<IrNode['issues'][number] & { path: DocPath; node: IrNode }> = [];
  const references: Array<IrNode['references'][number] & { path: DocPath; node: IrNode }> = [];
  // Most documents have neither: finding that out needs no paths.
  if (!carriesFindings(node)) {
    findings.set(node, { issues, references });
    return { issues, references };
  }
  eachNode(node, ({ node: at, body }) => {
    for (const issue of at.issues) issues.push({ ...issue, path: body, node: at });
    for (const reference of at.references)
      references.push({ ...reference, path: [...body, ...reference.path], node: at });
  });
  findings.set(node, { issues, references });
  return { issues, references };
}

const carriesFindings = (node: IrNode): boolean =>
  node.issues.length > 0 || node.references.length > 0 || node.children.some((child) => carriesFindings(child.node));

export interface BuildResult {
  readonly documents: BuiltDocument[];
  readonly diagnostics: Diagnostic[];
}

/**
 * Builds every resource, validates each document, and checks what spans documents. `otherKeys` are
 * resources compiled too but not rebuilt (the incremental cache): references to them resolve. `settings` are the
 * project's rule settings (`rules` in pipewright.config.ts).
 */
export function buildAndValidate(
  found: readonly FoundResource[],
  otherKeys: readonly ResourceKey[] = [],
  settings?: RuleSettings,
): BuildResult {
  const { documents, diagnostics } = buildEach(found, settings);
  diagnostics.push(...checkBuiltAcross(documents, otherKeys, settings));
  return { documents, diagnostics };
}

/** A builder reference of a built document: where the builder call that wrote it is. */
interface BuiltReference {
  readonly built: BuiltDocument;
  readonly reference: IrNode['references'][number] & { node: IrNode };
}

const BUILT_WORDS: AcrossWords<BuiltDocument, BuiltReference> = {
  first: (built) => `export "${built.exportName}" at ${formatLocation(built.resource.site.location ?? fileOf(built))}`,
  targetDefined: ({ reference }) => formatSite(reference.target.site.location),
};

/**
 * What spans documents (check/check-across.ts), located at the builder calls: identities built twice, builder
 * references that do not resolve (among `documents` and `otherKeys`) or are out of scope, input sets that do not
 * fit their pipeline; as the project's rule `settings` want them.
 */
export function checkBuiltAcross(
  documents: readonly BuiltDocument[],
  otherKeys: readonly ResourceKey[] = [],
  settings?: RuleSettings,
): Diagnostic[] {
  const targetKey = builtKeys(documents);
  const records = documents.map((built): AcrossRecord<BuiltDocument, BuiltReference> => ({
    key: built.key,
    place: built,
    document: built.document,
    references: nodeFindings(built.node).references.map((reference) => ({
      target: targetKey(reference.target),
      by: 'builder',
      path: reference.path,
      place: { built, reference },
    })),
    runtimeInputs: () => runtimeInputs(built.document, built.inputs),
  }));
  return checkAcross(records, BUILT_WORDS, { known: otherKeys, settings }).map(({ diagnostic, record, reference }) => {
    const [marked] = markSuppressed(record.place.node, [diagnostic]);
    // Formatting a call site reads the bundle's source map: done only for what is reported (docs/performance.md).
    return reference
      ? { ...marked!, location: reference.place.reference.node.site?.location ?? fileOf(record.place) }
      : locate(record.place, marked!);
  });
}

/**
 * The key a builder reference names: the built document's, when its builder is among `documents` (so it
 * resolves whatever its fields say), else as `keyOf` reads its scope and identifier; a kind whose identity
 * includes its parent or version (an infrastructure's environment, a template's version) from its node.
 */
function builtKeys(documents: readonly BuiltDocument[]): (target: AnyResource) => ResourceKey {
  const built = new Map(documents.map((d) => [d.resource, d.key]));
  return (target) => built.get(target) ?? builderKey(target);
}

/** A builder's key without its document: its node only where the scope and identifier are not the whole identity. */
function builderKey(target: AnyResource): ResourceKey {
  const kind = kindOf(target);
  const row = kindRow(kind);
  const key =
    row.parent || row.version
      ? target.toNode().key
      : keyOf(kind, {
          identifier: target.identifier,
          orgIdentifier: target.scope.org,
          projectIdentifier: target.scope.project,
        });
  return key ?? { kind, identifier: target.identifier };
}

/** A document's builder references, by the key they name: what compile's worker batches and cache keep of them. */
export function referenceTargets(
  built: BuiltDocument,
): Array<{ readonly target: ResourceKey; readonly path: DocPath }> {
  const { references } = nodeFindings(built.node);
  if (references.length === 0) return [];
  const targetKey = builtKeys([built]);
  return references.map((reference) => ({ target: targetKey(reference.target), path: reference.path }));
}

/**
 * Builds and validates each document on its own: everything but the checks that span documents. With
 * `keepInputs`, each pipeline keeps the runtime inputs its check passes, for the input sets that fill it.
 */
export function buildEach(found: readonly FoundResource[], settings?: RuleSettings, keepInputs = true): BuildResult {
  const documents: BuiltDocument[] = found.map((entry) => {
    const node = entry.resource.toNode();
    const kind = kindOf(entry.resource);
    const key = node.key ?? { kind, identifier: entry.resource.identifier };
    return {
      ...entry,
      kind,
      key,
      document: lower(node),
      node,
      ...(kind === 'pipeline' && keepInputs ? { inputs: [] } : {}),
    };
  });
  const diagnostics: Diagnostic[] = documents.flatMap((built) =>
    markSuppressed(built.node, applyRuleSettings(optionIssues(built), settings)),
  );
  for (const built of documents) {
    // A builder told of a missing option already said what the wire check would find missing below it.
    const missing = nodeFindings(built.node)
      .issues.filter((issue) => issue.code === 'missing-option')
      .map((issue) => issue.path);
    for (const diagnostic of checkDocument(built.kind, built.node, built.document, settings, built.inputs))
      if (
        diagnostic.code !== 'missing-field' ||
        !missing.some((path) => path.every((key, index) => diagnostic.path[index] === key))
      )
        diagnostics.push(locate(built, diagnostic));
  }
  return { documents, diagnostics };
}

/**
 * Options a builder was given wrong, at the builder's call, once per use: a shared step used in many pipelines
 * made one mistake at one line, which `groupDiagnostics` reports once, with the number of uses and a few of them.
 */
function optionIssues(built: BuiltDocument): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const issue of nodeFindings(built.node).issues) {
    const location = issue.node.site?.location ?? fileOf(built);
    const { subject } = describePath(built.document, issue.path);
    found.push({
      code: issue.code,
      severity: 'error',
      message: issue.message,
      path: issue.path,
      subject,
      location,
      ...(issue.hint ? { hint: issue.hint } : {}),
      ...(issue.suggestion ? { suggestion: issue.suggestion } : {}),
    });
  }
  return found;
}
