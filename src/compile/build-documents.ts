import { kindRow } from '../catalog/kinds.js';
import { eachNode, sourceOf } from '../ir/locate.js';
import { lower } from '../ir/lower.js';
import { type IrNode, kindOf, type AnyResource } from '../ir/node.js';
import { type DocPath, describePath } from '../core/document-path.js';
import type { ResourceKind } from '../schema/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { formatLocation, type DiagnosticLocation } from '../core/source-location.js';
import { inputSetFit, pipelineKeyOf } from '../check/rules-input-sets.js';
import { applyRuleSettings, type RuleSettings } from '../check/rule-settings.js';
import { checkDocument, describeKey, keyString, type ResourceKey } from '../check/check-document.js';

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
  return { ...diagnostic, location: used, hint: `${diagnostic.hint ? `${diagnostic.hint}; ` : ''}the step is defined at ${formatLocation(defined)}` };
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
    for (const reference of at.references) references.push({ ...reference, path: [...body, ...reference.path], node: at });
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
export function buildAndValidate(found: readonly FoundResource[], otherKeys: readonly ResourceKey[] = [], settings?: RuleSettings): BuildResult {
  const { documents, diagnostics } = buildEach(found, settings);
  diagnostics.push(...checkAcross(documents, otherKeys, settings));
  return { documents, diagnostics };
}

/**
 * What spans documents, located at the builder calls: identities built twice, builder references that do not
 * resolve (among `documents` and `otherKeys`) or are out of scope, input sets that do not fit their pipeline;
 * as the project's rule `settings` want them.
 */
export function checkAcross(documents: readonly BuiltDocument[], otherKeys: readonly ResourceKey[] = [], settings?: RuleSettings): Diagnostic[] {
  const across = [...duplicateResources(documents), ...unresolvedReferences(documents, otherKeys), ...inputSetsAgainstPipelines(documents)];
  return applyRuleSettings(across, settings);
}

/** Builds and validates each document on its own: everything but the checks that span documents. */
export function buildEach(found: readonly FoundResource[], settings?: RuleSettings): BuildResult {
  const documents: BuiltDocument[] = found.map((entry) => {
    const node = entry.resource.toNode();
    const kind = kindOf(entry.resource);
    const key = node.key ?? { kind, identifier: entry.resource.identifier };
    return { ...entry, kind, key, document: lower(node), node };
  });
  const diagnostics: Diagnostic[] = [...optionIssues(documents)];
  for (const built of documents) {
    // A builder told of a missing option already said what the wire check would find missing below it.
    const missing = nodeFindings(built.node).issues.filter((issue) => issue.code === 'missing-option').map((issue) => issue.path);
    for (const diagnostic of checkDocument(built.kind, built.node, built.document, settings))
      if (diagnostic.code !== 'missing-field' || !missing.some((path) => path.every((key, index) => diagnostic.path[index] === key)))
        diagnostics.push(locate(built, diagnostic));
  }
  return { documents, diagnostics };
}

/**
 * Options a builder was given wrong, at the builder's call, once per use: a shared step used in many pipelines
 * made one mistake at one line, which `groupDiagnostics` reports once, with the number of uses and a few of them.
 */
function optionIssues(documents: readonly BuiltDocument[]): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const built of documents)
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

interface ResolvedReference {
  readonly key: ResourceKey;
  /** Built among `documents` (the same builder, or one with its identity) or one of the other keys. */
  readonly resolved: boolean;
  /** Whether the referring document may see it (connectors are scoped). */
  readonly visible: boolean;
}

/**
 * How the builder references of `documents` resolve: the one rule behind the in-process check and the
 * summaries that worker batches send, so both ways agree on what resolves.
 */
function referenceResolver(documents: readonly BuiltDocument[], otherKeys: readonly ResourceKey[] = []) {
  const built = new Set(documents.map((d) => d.resource));
  const keys = new Set([...documents.map((d) => d.key), ...otherKeys].map(keyString));
  return (referrer: BuiltDocument, target: AnyResource): ResolvedReference => {
    const kind = kindOf(target);
    const { org, project } = target.scope;
    const here = referrer.key;
    const row = kindRow(kind);
    // A kind whose identity includes its parent or version (an infrastructure's environment, a template's
    // version) is keyed by its document, as compiled.
    const key: ResourceKey =
      (row.parent || row.version ? target.toNode().key : undefined) ?? { kind, identifier: target.identifier, ...target.scope };
    return {
      key,
      resolved: built.has(target) || keys.has(keyString(key)),
      visible: kind !== 'connector' || !org || (org === here.org && (!project || project === here.project)),
    };
  };
}

/**
 * A builder reference reduced to data, for checking across worker batches by key. `resolved` is true when
 * its target is built in the same batch (by identity or key), as the in-process check would find it.
 */
export interface ReferenceSummary {
  readonly target: string;
  readonly resolved: boolean;
  readonly visible: boolean;
}

export function referenceSummaries(documents: readonly BuiltDocument[]): ReferenceSummary[] {
  const resolve = referenceResolver(documents);
  return documents.flatMap((document) =>
    nodeFindings(document.node).references.map((reference) => {
      const { key, resolved, visible } = resolve(document, reference.target);
      return { target: keyString(key), resolved, visible };
    }),
  );
}

/** Each input set against its pipeline, when that is compiled too (same project, same identifier). */
function inputSetsAgainstPipelines(documents: readonly BuiltDocument[]): Diagnostic[] {
  const pipelines = new Map(documents.filter((d) => d.kind === 'pipeline').map((d) => [keyString({ ...d.key, kind: 'pipeline' }), d]));
  return documents
    .filter((d) => d.kind === 'inputSet' && d.key.parent)
    .flatMap((built) => {
      const pipeline = pipelines.get(pipelineKeyOf(built.key)!);
      return pipeline ? inputSetFit(built.document, pipeline.document).map((diagnostic) => locate(built, diagnostic)) : [];
    });
}

function duplicateResources(documents: readonly BuiltDocument[]): Diagnostic[] {
  const seen = new Map<string, BuiltDocument>();
  const found: Diagnostic[] = [];
  for (const built of documents) {
    const id = keyString(built.key);
    const first = seen.get(id);
    if (!first) {
      seen.set(id, built);
      continue;
    }
    found.push(
      locate(built, {
        code: 'duplicate-resource',
        severity: 'error',
        message: `${describeKey(built.key)} is defined twice`,
        path: [kindRow(built.kind).rootKey, 'identifier'],
        subject: describePath(built.document, [kindRow(built.kind).rootKey]).subject,
        hint: `the other one is export "${first.exportName}" at ${formatLocation(first.resource.site.location ?? fileOf(first))}; rename one identifier`,
      }),
    );
  }
  return found;
}

/** Builder references must point at a resource that is compiled too, in a scope the referrer can see. */
function unresolvedReferences(documents: readonly BuiltDocument[], otherKeys: readonly ResourceKey[]): Diagnostic[] {
  const resolve = referenceResolver(documents, otherKeys);
  const found: Diagnostic[] = [];
  for (const built of documents) {
    for (const reference of nodeFindings(built.node).references) {
      const { key: targetKey, resolved, visible } = resolve(built, reference.target);
      // Only a diagnostic needs these: formatting a call site reads the bundle's source map, which cost
      // more than the check itself when done for every reference of 1000 pipelines (docs/performance.md).
      const subject = () => describePath(built.document, reference.path).subject;
      const location = () => reference.node.site?.location ?? fileOf(built);
      if (!resolved) {
        found.push({
          code: 'unresolved-reference',
          severity: 'error',
          message: `references ${describeKey(targetKey)}, which is not among the compiled resources`,
          path: reference.path,
          subject: subject(),
          location: location(),
          hint: `export it from a compiled file (defined at ${formatSite(reference.target.site.location)}), or give the identifier as a string if it already exists on the platform`,
        });
        continue;
      }
      if (!visible)
        found.push({
          code: 'out-of-scope-reference',
          severity: 'error',
          message: `uses ${describeKey(targetKey)}, which ${describeKey(built.key)} cannot see`,
          path: reference.path,
          subject: subject(),
          location: location(),
          hint: 'a document sees connectors of its own project, its org, and the account; move the connector up a level or into this project',
        });
    }
  }
  return found;
}
