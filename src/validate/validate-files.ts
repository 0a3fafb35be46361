import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../core/diagnostics.js';
import { compareLocations, formatLocation, type SourceLocation, type SourceSpan } from '../core/source-location.js';
import { describePath } from '../core/document-path.js';
import { closest, didYouMean } from '../core/suggest.js';
import { inputSetFit, pipelineKeyOf } from '../check/rules-input-sets.js';
import { applyRuleSettings, type RuleSettings } from '../check/rule-settings.js';
import { checkDocument, describeKey, documentKind, keyString, resourceKey, type ResourceKey } from '../check/check-document.js';
import { lift } from '../ir/lift.js';
import { kindRow, KINDS, rootKeyList } from '../catalog/kinds.js';
import { readPlainYaml } from '../yaml/read-plain-yaml.js';
import { readYaml } from '../yaml/read-yaml.js';
import { locate } from './yaml-locate.js';
import { isRecord } from '../core/is-record.js';

/** A diagnostic with its place in a YAML file. */
export type LocatedDiagnostic = Diagnostic & { readonly location: SourceLocation };

export interface FileResult {
  readonly file: string;
  /** Documents found in the file (a multi-document file counts each). */
  documents: number;
  readonly diagnostics: LocatedDiagnostic[];
}

/** A document's identity on the platform and where it is, for the check across files. */
export interface ResourcePlace {
  readonly key: string;
  readonly described: string;
  readonly subject: string;
  readonly path: Array<string | number>;
  readonly file: string;
  readonly location: SourceLocation;
}

/** What reading and checking the files gives, before the check across files. */
export interface ValidatedBatch {
  readonly results: FileResult[];
  readonly resources: ResourcePlace[];
  /** Input sets, kept whole (they are few and small) to be checked against their pipelines. */
  readonly inputSets: InputSetPlace[];
}

export interface InputSetPlace {
  readonly key: ResourceKey;
  readonly value: unknown;
  readonly file: string;
}

/** Diagnostics that are about a key rather than its value. */
const KEY_CODES = new Set(['unknown-key']);

/**
 * Parses, validates and locates every document of every file, then checks what spans documents. One thread: with
 * the fast reader, worker threads cost more than they saved, even at 5000 files (docs/performance.md, issue 13).
 */
export async function validateFiles(files: readonly string[], settings?: RuleSettings): Promise<FileResult[]> {
  const { results, resources, inputSets } = validateBatch(files, settings);
  const byFile = new Map(results.map((result) => [result.file, result]));
  for (const duplicate of duplicateResources(resources)) byFile.get(duplicate.location.file)!.diagnostics.push(duplicate);
  for (const misfit of applyRuleSettings(inputSetsAgainstPipelines(inputSets, resources), settings)) byFile.get(misfit.location.file)!.diagnostics.push(misfit);
  for (const result of results) result.diagnostics.sort((a, b) => compareLocations(a.location, b.location) || (a.message < b.message ? -1 : 1));
  return results;
}

/** Reads, validates (with the project's rule settings) and locates the documents of `files`. */
export function validateBatch(files: readonly string[], settings?: RuleSettings): ValidatedBatch {
  const results: FileResult[] = [];
  const resources: ResourcePlace[] = [];
  const inputSets: InputSetPlace[] = [];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const result: FileResult = { file, documents: 0, diagnostics: [] };
    results.push(result);
    // Most files are plain block YAML with nothing to report: the fast reader and one check settle them. Any
    // other file, or any diagnostic, goes through readYaml, which reads and locates everything exactly.
    const plain = readPlainYaml(source);
    const plainKind = plain && documentKind(plain.value);
    const plainNode = plain && plainKind && lift(plainKind, plain.value);
    if (plain && plainKind && plainNode && checkDocument(plainKind, plainNode, plain.value, settings).length === 0) {
      result.documents = 1;
      const key = plainNode.key;
      const { rootKey } = kindRow(plainKind);
      const place = plain.positions.get([rootKey, 'identifier']);
      if (key && place)
        resources.push({ key: keyString(key), described: describeKey(key), subject: describePath(plain.value, [rootKey]).subject, path: [rootKey, 'identifier'], file, location: { file, ...place } });
      if (key && plainKind === 'inputSet') inputSets.push({ key, value: plain.value, file });
      continue;
    }
    const { documents, diagnostics, lines } = readYaml(source, file);
    result.diagnostics.push(...diagnostics);
    const add = (diagnostic: Diagnostic, span: SourceSpan) => result.diagnostics.push({ ...diagnostic, location: { file, ...span } });
    for (const { node: document, value: data } of documents) {
      result.documents++;
      const kind = documentKind(data);
      if (!kind) {
        add(unknownKind(data), locate(document, [], lines));
        continue;
      }
      const node = lift(kind, data);
      for (const diagnostic of checkDocument(kind, node, data, settings))
        add(diagnostic, locate(document, diagnostic.path, lines, KEY_CODES.has(diagnostic.code)));
      const key = node.key;
      if (!key) continue;
      const { rootKey } = kindRow(kind);
      const path = [rootKey, 'identifier'];
      resources.push({ key: keyString(key), described: describeKey(key), subject: describePath(data, [rootKey]).subject, path, file, location: { file, ...locate(document, path, lines) } });
      if (kind === 'inputSet') inputSets.push({ key, value: data, file });
    }
    if (result.documents === 0 && result.diagnostics.length === 0)
      add({ code: 'no-documents', severity: 'error', message: 'has no YAML documents', path: [], hint: `a file holds one or more documents with a root key ${rootKeyList()}` }, { line: 1, column: 1 });
  }
  return { results, resources, inputSets };
}

function unknownKind(data: unknown): Diagnostic {
  const keys = isRecord(data) ? Object.keys(data) : [];
  const suggestion = keys.map((key) => closest(key, KINDS.map((row) => row.rootKey))).find(Boolean);
  return {
    code: 'not-a-platform-document',
    severity: 'error',
    message: keys.length
      ? `document has no ${rootKeyList()} root key (found ${keys.map((key) => JSON.stringify(key)).join(', ')})`
      : `document is not a map with a ${rootKeyList()} root key`,
    path: [],
    ...(suggestion ? didYouMean(suggestion) : { hint: `start the document with one of ${rootKeyList(':, ', ': or ')}:` }),
  };
}

/** The same resource (kind, scope, identifier) in two documents: publishing would let one overwrite the other. */
function duplicateResources(places: readonly ResourcePlace[]): LocatedDiagnostic[] {
  const seen = new Map<string, string>();
  const found: LocatedDiagnostic[] = [];
  for (const place of places) {
    const first = seen.get(place.key);
    if (!first) {
      seen.set(place.key, formatLocation(place.location));
      continue;
    }
    found.push({
      code: 'duplicate-resource',
      severity: 'error',
      message: `${place.described} is defined twice`,
      path: place.path,
      subject: place.subject,
      hint: `the other one is at ${first}; rename one identifier`,
      location: place.location,
    });
  }
  return found;
}

/** The first document of `file` whose identity is `key`, read (again) with the exact reader, to locate in it. */
function documentWithKey(file: string, key: string) {
  const read = readYaml(readFileSync(file, 'utf8'), file);
  for (const document of read.documents) {
    const kind = documentKind(document.value);
    const found = kind && resourceKey(kind, document.value);
    if (found && keyString(found) === key) return { ...document, lines: read.lines };
  }
  return undefined;
}

/**
 * Each input set against its pipeline when both are among the files (as compile does for builders): the
 * pipeline is read again only then, so validate keeps no pipeline in memory for a check most runs never need.
 */
function inputSetsAgainstPipelines(inputSets: readonly InputSetPlace[], resources: readonly ResourcePlace[]): LocatedDiagnostic[] {
  if (inputSets.length === 0) return [];
  const fileOf = new Map(resources.map((place) => [place.key, place.file]));
  return inputSets.flatMap(({ key, value, file }) => {
    const pipelineKey = pipelineKeyOf(key);
    const pipelineFile = pipelineKey && fileOf.get(pipelineKey);
    const pipeline = pipelineFile && documentWithKey(pipelineFile, pipelineKey);
    if (!pipeline) return [];
    const misfits = inputSetFit(value, pipeline.value);
    const inputSet = misfits.length ? documentWithKey(file, keyString(key)) : undefined;
    if (!inputSet) return [];
    return misfits.map((diagnostic) => {
      return { ...diagnostic, location: { file, ...locate(inputSet.node, diagnostic.path, inputSet.lines) } };
    });
  });
}
