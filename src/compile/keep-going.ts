import { resolve } from 'node:path';
import { describeKey, keyId, type ResourceKey } from '../catalog/resource-key.js';
import { inputSetPipeline } from '../check/check-across.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { EntryDocument, EntryResult } from './entry-result.js';
import type { Manifest, ManifestEntry, SkippedEntry } from './layout.js';
import type { Pruning } from './prune.js';

/**
 * `compile --keep-going`: the entries with errors are set aside with every document that depends on theirs (a
 * pipeline whose template, service or other referenced resource is skipped, an input set whose pipeline is), and
 * the rest is written. An entry's errors are its own diagnostics and the errors across entries located in a file it
 * is made of; an error no entry can be blamed for stops the compile as without the flag (undefined).
 */
export function setAsideInvalid(
  results: readonly EntryResult[],
  diagnostics: readonly Diagnostic[],
  previous: Manifest | undefined,
): { readonly results: EntryResult[]; readonly skipped: SkippedEntry[] } | undefined {
  const failed = new Set(results.filter((result) => hasError(result.diagnostics)).map((result) => result.file));
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity !== 'error' || results.some((r) => r.diagnostics.includes(diagnostic))) continue;
    const at = diagnostic.location?.file;
    const blamed = at === undefined ? [] : results.filter((r) => r.dependencies.includes(resolve(at)));
    if (blamed.length === 0) return undefined;
    for (const result of blamed) failed.add(result.file);
  }
  const skipped: SkippedEntry[] = [];
  const skippedKeys = new Map<string, ResourceKey>();
  for (const result of results.filter((r) => failed.has(r.file))) {
    // An entry that failed before making a document: what the last compile made of it, else only its name.
    const known: Array<ResourceKey & { readonly file?: string }> = result.documents.length
      ? result.documents.map((d) => ({ ...d.key, file: d.output.file }))
      : lastMadeBy(result.file, previous);
    if (known.length === 0) skipped.push({ source: result.file, reason: 'invalid' });
    for (const key of known) {
      skippedKeys.set(keyId(key), key);
      skipped.push({ ...identity(key), source: result.file, reason: 'invalid' });
    }
  }
  const kept = new Map<string, EntryDocument[]>(
    results.filter((r) => !failed.has(r.file)).map((r) => [r.file, [...r.documents]]),
  );
  // Until nothing more goes: a document that depends on a skipped one is skipped, and so on down the chain.
  for (let changed = true; changed;) {
    changed = false;
    for (const [file, documents] of kept)
      for (const document of [...documents]) {
        const on = skippedDependency(document, skippedKeys);
        if (!on) continue;
        documents.splice(documents.indexOf(document), 1);
        skippedKeys.set(keyId(document.key), document.key);
        skipped.push({
          ...identity({ ...document.key, file: document.output.file }),
          source: file,
          reason: 'depends-on-skipped',
          dependsOn: describeKey(on),
        });
        changed = true;
      }
  }
  return {
    results: results.map((result) => ({
      ...result,
      documents: kept.get(result.file) ?? [],
    })),
    skipped: skipped.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0)),
  };
}

/** The pruning with the skipped documents' old outputs gone for that reason (not "no longer exported") and listed. */
export function withSkipped(pruning: Pruning, skipped: readonly SkippedEntry[]): Pruning {
  if (skipped.length === 0) return pruning;
  const files = new Set(skipped.flatMap((entry) => (entry.file ? [entry.file] : [])));
  return {
    ...pruning,
    manifest: { ...pruning.manifest, skipped },
    removals: pruning.removals.map((removal) =>
      files.has(removal.file) && removal.reason !== 'moved' ? { ...removal, reason: 'skipped' as const } : removal,
    ),
  };
}

/** The resources the previous compile wrote or skipped for a source. */
function lastMadeBy(source: string, previous: Manifest | undefined): Array<ResourceKey & { readonly file?: string }> {
  const entries: ReadonlyArray<ManifestEntry | SkippedEntry> = [
    ...(previous?.files ?? []),
    ...(previous?.skipped ?? []),
  ];
  return entries.flatMap((entry) =>
    entry.source === source && entry.kind !== undefined && entry.identifier !== undefined
      ? [{ ...identity(entry as ResourceKey & { file?: string }), kind: entry.kind, identifier: entry.identifier }]
      : [],
  );
}

const hasError = (diagnostics: readonly Diagnostic[]) => diagnostics.some((d) => d.severity === 'error');

/** The skipped resource it refers to (a reference, or an input set's pipeline), if any. */
function skippedDependency(
  document: EntryDocument,
  skipped: ReadonlyMap<string, ResourceKey>,
): ResourceKey | undefined {
  const pipeline = inputSetPipeline(document.key);
  const targets = [...document.references.map((reference) => reference.target), ...(pipeline ? [pipeline] : [])];
  for (const target of targets) {
    const found = skipped.get(keyId(target));
    if (found) return found;
  }
  return undefined;
}

function identity(key: ResourceKey & { readonly file?: string }): Omit<SkippedEntry, 'source' | 'reason'> {
  const { file, kind, org, project, parent, version, identifier } = key;
  return {
    ...(file ? { file } : {}),
    kind,
    ...(org ? { org } : {}),
    ...(project ? { project } : {}),
    ...(parent ? { parent } : {}),
    ...(version ? { version } : {}),
    identifier,
  };
}

const order = (entry: SkippedEntry) => entry.file ?? entry.source;
