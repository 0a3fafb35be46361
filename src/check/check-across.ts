import { kindRow } from '../catalog/kinds.js';
import { canSee, describeKey, keyId, type ResourceKey } from '../catalog/resource-key.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { describePath, type DocPath } from '../core/document-path.js';
import { applyRuleSettings, type RuleSettings } from './rule-settings.js';
import { inputSetFit, type RuntimeInput } from './rules-input-sets.js';

/**
 * The one check across documents: identities defined twice, builder references that do not resolve or that
 * their document cannot see, input sets that do not fit their pipeline, template versions (a reference names a
 * version, which resolves only if that version is among the records). It works on keyed records, so compile feeds
 * it builders (and the summaries its worker batches and cache keep), validate YAML documents; each gives its own
 * places (`P` for a document, `R` for a reference), and locates what is found by them.
 */

/** A reference from one document to another resource. */
interface AcrossReference<R> {
  readonly target: ResourceKey;
  /**
   * `builder`: the user gave the resource's builder, so it must be among the records; `text`: an identifier the
   * platform resolves, perhaps to a resource that exists only there (never reported as unresolved).
   */
  readonly by: 'builder' | 'text';
  /** Where the referring document writes it. */
  readonly path: DocPath;
  readonly place: R;
}

/** One document, as the checks across documents need it. */
export interface AcrossRecord<P, R = P> {
  readonly key: ResourceKey;
  readonly place: P;
  /**
   * The document, when the caller keeps it: an input set's values are read from it (an input set without it is
   * not checked against its pipeline), and the subjects of reference diagnostics are described from it.
   */
  readonly document?: unknown;
  readonly references?: readonly AcrossReference<R>[];
  /**
   * A pipeline's runtime inputs: asked for only when an input set among the records fills the pipeline. A
   * pipeline without it is not known well enough to check its input sets against.
   */
  readonly runtimeInputs?: () => readonly RuntimeInput[];
}

/** How hints name places, which only the caller knows. */
export interface AcrossWords<P, R> {
  /** The first definition of a duplicate, after "the other one is": `export "a" at a.ts:3:14`, `at a.yaml:2:15`. */
  readonly first: (place: P) => string;
  /** Where the target of a builder reference is defined, for the hint of one that does not resolve. */
  readonly targetDefined: (place: R) => string;
}

/** A problem across documents, not yet located: at `diagnostic.path` of `record`'s document, or at `reference`. */
export interface AcrossFinding<P, R> {
  readonly diagnostic: Diagnostic;
  readonly record: AcrossRecord<P, R>;
  readonly reference?: AcrossReference<R>;
  /** Every record it involves: the located one first, then the other side (a duplicate's first, an input set's pipeline). */
  readonly involved: ReadonlyArray<AcrossRecord<P, R>>;
}

export interface AcrossOptions {
  /** Resources known to exist besides the records (compile's entries not built again): references to them resolve. */
  readonly known?: readonly ResourceKey[];
  /** The project's rule settings (`rules` in pipewright.config.ts). */
  readonly settings?: RuleSettings | undefined;
}

/** What the records say across documents, in their order: duplicates, then references, then input sets. */
export function checkAcross<P, R>(
  records: ReadonlyArray<AcrossRecord<P, R>>,
  words: AcrossWords<P, R>,
  options: AcrossOptions = {},
): AcrossFinding<P, R>[] {
  const byKey = new Map<string, Array<AcrossRecord<P, R>>>();
  for (const record of records) {
    const id = keyId(record.key);
    const same = byKey.get(id);
    if (same) same.push(record);
    else byKey.set(id, [record]);
  }
  const found = [
    ...duplicates(records, byKey, words),
    ...references(records, byKey, words, options.known ?? []),
    ...inputSets(records, byKey),
  ];
  if (!options.settings) return found;
  return found.flatMap((finding) =>
    applyRuleSettings([finding.diagnostic], options.settings).map((diagnostic) => ({ ...finding, diagnostic })),
  );
}

/** The same resource (kind, scope, owner, identifier, version) in two documents: publishing one would overwrite the other. */
function* duplicates<P, R>(
  records: ReadonlyArray<AcrossRecord<P, R>>,
  byKey: Map<string, Array<AcrossRecord<P, R>>>,
  words: AcrossWords<P, R>,
) {
  for (const record of records) {
    const first = byKey.get(keyId(record.key))![0]!;
    if (first === record) continue;
    const { rootKey } = kindRow(record.key.kind);
    const diagnostic: Diagnostic = {
      code: 'duplicate-resource',
      severity: 'error',
      message: `${describeKey(record.key)} is defined twice`,
      path: [rootKey, 'identifier'],
      subject: describePath({ [rootKey]: { identifier: record.key.identifier } }, [rootKey]).subject,
      hint: `the other one is ${words.first(first.place)}; rename one identifier`,
    };
    yield { diagnostic, record, involved: [record, first] };
  }
}

/** Builder references must name a resource among the records (or known), in a scope their document can see. */
function* references<P, R>(
  records: ReadonlyArray<AcrossRecord<P, R>>,
  byKey: Map<string, Array<AcrossRecord<P, R>>>,
  words: AcrossWords<P, R>,
  known: readonly ResourceKey[],
): Generator<AcrossFinding<P, R>> {
  const knownIds = new Set(known.map(keyId));
  for (const record of records)
    for (const reference of record.references ?? []) {
      if (reference.by === 'text') continue;
      const { target } = reference;
      // Only a diagnostic needs its subject: describing paths for every reference of 1000 pipelines costs.
      const subject = () =>
        record.document === undefined ? {} : { subject: describePath(record.document, reference.path).subject };
      const id = keyId(target);
      if (!byKey.has(id) && !knownIds.has(id)) {
        const diagnostic: Diagnostic = {
          code: 'unresolved-reference',
          severity: 'error',
          message: `references ${describeKey(target)}, which is not among the compiled resources`,
          path: reference.path,
          ...subject(),
          hint: `export it from a compiled file (defined at ${words.targetDefined(reference.place)}), or give the identifier as a string if it already exists on the platform`,
        };
        yield { diagnostic, record, reference, involved: [record] };
      } else if (target.kind === 'connector' && !canSee(record.key, target)) {
        // Only connectors are checked for scope: the other kinds' builders are referred to from their own project.
        const diagnostic: Diagnostic = {
          code: 'out-of-scope-reference',
          severity: 'error',
          message: `uses ${describeKey(target)}, which ${describeKey(record.key)} cannot see`,
          path: reference.path,
          ...subject(),
          hint: 'a document sees connectors of its own project, its org, and the account; move the connector up a level or into this project',
        };
        yield { diagnostic, record, reference, involved: [record] };
      }
    }
}

/** The key of the pipeline an input set fills: same org and project, its parent's identifier. */
export function inputSetPipeline(inputSet: ResourceKey): ResourceKey | undefined {
  if (inputSet.kind !== 'inputSet' || inputSet.parent === undefined) return undefined;
  const { org, project } = inputSet;
  return {
    kind: 'pipeline',
    identifier: inputSet.parent,
    ...(org !== undefined ? { org } : {}),
    ...(project !== undefined ? { project } : {}),
  };
}

/** Each input set against its pipeline, when that is among the records once and its inputs are known. */
function* inputSets<P, R>(
  records: ReadonlyArray<AcrossRecord<P, R>>,
  byKey: Map<string, Array<AcrossRecord<P, R>>>,
): Generator<AcrossFinding<P, R>> {
  for (const record of records) {
    const pipelineKey = inputSetPipeline(record.key);
    if (!pipelineKey || record.document === undefined) continue;
    const pipelines = byKey.get(keyId(pipelineKey));
    // A pipeline defined twice is reported as such; which of the two the input set fills is not known.
    const pipeline = pipelines?.length === 1 ? pipelines[0] : undefined;
    if (!pipeline?.runtimeInputs) continue;
    for (const diagnostic of inputSetFit(record.document, pipeline.runtimeInputs(), pipelineKey.identifier))
      yield { diagnostic, record, involved: [record, pipeline] };
  }
}
