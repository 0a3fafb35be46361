import { DiagnosticError, type Diagnostic } from '../core/diagnostics.js';
import type { DocPath } from '../core/document-path.js';
import { closest, didYouMean } from '../core/suggest.js';
import { compareLocations, formatLocation, type SourceLocation, type SourceSpan } from '../core/source-location.js';
import { runtimeInputs } from '../check/rules-input-sets.js';
import type { RuleSettings } from '../check/rule-settings.js';
import { checkAcross, type AcrossRecord } from '../check/check-across.js';
import { checkDocument } from '../check/check-document.js';
import { unmanagedKind } from '../check/unmanaged-kind.js';
import { applyRuleSettings } from '../check/rule-settings.js';
import { applyDisableComments } from './comment-suppressions.js';
import { lift } from '../ir/lift.js';
import type { ResourceKey } from '../catalog/resource-key.js';
import { kindOfDocument, kindRow, KINDS, rootKeyList, unmanagedRootKey, type ResourceKind } from '../catalog/kinds.js';
import { readPlainYaml } from '../yaml/read-plain-yaml.js';
import { readYaml } from '../yaml/read-yaml.js';
import { readYamlFile } from '../yaml/read-yaml-file.js';
import { DISABLE_NEXT_LINE } from '../yaml/disable-comments.js';
import { locate } from '../yaml/yaml-locate.js';
import { isRecord } from '../core/is-record.js';

/** A diagnostic with its place in a YAML file. */
export type LocatedDiagnostic = Diagnostic & { readonly location: SourceLocation };

export interface FileResult {
  readonly file: string;
  /** Documents found in the file (a multi-document file counts each). */
  documents: number;
  readonly diagnostics: LocatedDiagnostic[];
  /** The text holds a `# pipewright-disable-next-line`: read again to apply it, or to report it when it cannot. */
  readonly disableComments?: boolean;
}

/**
 * Where a document is, for the check across files: the file, the document's place among the file's documents
 * (as `readYaml` lists them), and the location of its identifier (where a duplicate is reported).
 */
export interface DocumentPlace {
  readonly file: string;
  readonly document: number;
  readonly location: SourceLocation;
}

/** What reading and checking the files gives, before the check across files. */
export interface ValidatedBatch {
  readonly results: FileResult[];
  /** Each keyed document; input sets keep their document (they are few and small), pipelines are read again if needed. */
  readonly records: Array<AcrossRecord<DocumentPlace>>;
}

/** One file's part of a batch. */
export interface ValidatedFile {
  readonly result: FileResult;
  readonly records: Array<AcrossRecord<DocumentPlace>>;
}

/** Diagnostics that are about a key rather than its value. */
const KEY_CODES = new Set(['unknown-key']);

/** A file's text: read from disk by the CLI, an editor's buffer in the language server. */
export type TextOf = (file: string) => string;

/** A file read again (to locate or to apply its comments): it was read once already, so it is a file that reads. */
const fromDisk: TextOf = (file) => {
  const read = readYamlFile(file);
  if ('refused' in read) throw new DiagnosticError([read.refused]);
  return read.text;
};

/**
 * Parses, validates and locates every document of every file, then checks what spans documents. One thread: with
 * the fast reader, worker threads cost more than they saved, even at 5000 files (docs/performance.md, issue 13).
 */
export async function validateFiles(files: readonly string[], settings?: RuleSettings): Promise<FileResult[]> {
  const { results, records } = validateBatch(files, settings);
  return finishResults(results, records, settings, fromDisk);
}

/**
 * What follows the check of each file: the check across files (duplicates, references, input sets against their
 * pipeline), each file's disable comments, and the order of its diagnostics. `textOf` gives a file's text again,
 * only for a file with something to locate or suppress.
 */
export function finishResults(
  results: FileResult[],
  records: ReadonlyArray<AcrossRecord<DocumentPlace>>,
  settings: RuleSettings | undefined,
  textOf: TextOf,
): FileResult[] {
  const byFile = new Map(results.map((result) => [result.file, result]));
  // An input set that misfits its pipeline in several fields is read again once.
  const read = new Map<DocumentPlace, ReturnType<typeof readDocument>>();
  const locateIn = (place: DocumentPlace, path: DocPath): SourceLocation => {
    if (!read.has(place)) read.set(place, readDocument(place, textOf));
    const found = read.get(place);
    return found ? { file: place.file, ...locate(found.node, path, found.lines) } : place.location;
  };
  for (const { diagnostic, record } of checkAcross(records, YAML_WORDS, { settings })) {
    const location = isIdentifierPath(record, diagnostic.path)
      ? record.place.location
      : locateIn(record.place, diagnostic.path);
    byFile.get(record.place.file)?.diagnostics.push({ ...diagnostic, location });
  }
  for (const result of results) {
    if (result.disableComments)
      result.diagnostics.splice(
        0,
        Infinity,
        ...applyDisableComments(result.diagnostics, textOf(result.file), result.file),
      );
    result.diagnostics.sort((a, b) => compareLocations(a.location, b.location) || (a.message < b.message ? -1 : 1));
  }
  return results;
}

/** Validate has no builder references: their words are never asked for. */
const YAML_WORDS = {
  first: ({ location }: DocumentPlace) => `at ${formatLocation(location)}`,
  targetDefined: ({ location }: DocumentPlace) => formatLocation(location),
};

const isIdentifierPath = (record: AcrossRecord<DocumentPlace>, path: DocPath) =>
  path.length === 2 && path[0] === kindRow(record.key.kind).rootKey && path[1] === 'identifier';

/**
 * A document of a file read again with the exact reader, to locate a path in it or to read a pipeline's inputs:
 * only a diagnostic or an input set needs it, and validate keeps no pipeline in memory for that.
 */
function readDocument({ file, document }: DocumentPlace, textOf: TextOf) {
  const read = readYaml(textOf(file), file);
  const found = read.documents[document];
  return found && { ...found, lines: read.lines };
}

/** Reads, validates (with the project's rule settings) and locates the documents of `files`. */
export function validateBatch(files: readonly string[], settings?: RuleSettings): ValidatedBatch {
  const results: FileResult[] = [];
  const records: Array<AcrossRecord<DocumentPlace>> = [];
  for (const file of files) {
    // A file that cannot be read as text (a folder, a pipe, a device, too large, not UTF-8) is one diagnostic of
    // its own; the other files are checked on.
    const read = readYamlFile(file);
    if ('refused' in read) {
      results.push({ file, documents: 0, diagnostics: [{ ...read.refused, location: { file, line: 1, column: 1 } }] });
      continue;
    }
    const checked = validateSource(read.text, file, settings, fromDisk);
    results.push(checked.result);
    records.push(...checked.records);
  }
  return { results, records };
}

/**
 * Reads, validates and locates the documents of one YAML text, named `file`: its diagnostics, and its keyed
 * documents for the check across files (a pipeline's runtime inputs read again through `textOf` when asked).
 * `fast` tries the fast reader first, which pays when most files are clean (validate's many files); an editor's
 * document, checked at every edit and often unfinished, goes straight to the exact reader.
 */
export function validateSource(
  source: string,
  file: string,
  settings: RuleSettings | undefined,
  textOf: TextOf,
  fast = true,
): ValidatedFile {
  const result: FileResult = {
    file,
    documents: 0,
    diagnostics: [],
    ...(source.includes(DISABLE_NEXT_LINE) ? { disableComments: true } : {}),
  };
  const records: Array<AcrossRecord<DocumentPlace>> = [];
  /** A keyed document for the check across files: an input set with its document, a pipeline with a way to its inputs. */
  const keep = (kind: ResourceKind, key: ResourceKey, value: unknown, place: DocumentPlace) =>
    records.push({
      key,
      place,
      ...(kind === 'inputSet' ? { document: value } : {}),
      ...(kind === 'pipeline' ? { runtimeInputs: () => runtimeInputs(readDocument(place, textOf)?.value) } : {}),
    });
  // Most files are plain block YAML with nothing to report: the fast reader and one check settle them. Any
  // other file, or any diagnostic, goes through readYaml, which reads and locates everything exactly.
  const plain = fast ? readPlainYaml(source) : undefined;
  const plainKind = plain && kindOfDocument(plain.value);
  const plainNode = plain && plainKind && lift(plainKind, plain.value);
  if (plain && plainKind && plainNode && checkDocument(plainKind, plainNode, plain.value, settings).length === 0) {
    result.documents = 1;
    const place = plain.positions.get([kindRow(plainKind).rootKey, 'identifier']);
    if (plainNode.key && place)
      keep(plainKind, plainNode.key, plain.value, { file, document: 0, location: { file, ...place } });
    return { result, records };
  }
  const { documents, diagnostics, lines } = readYaml(source, file);
  result.diagnostics.push(...applyRuleSettings(diagnostics, settings));
  const add = (diagnostic: Diagnostic, span: SourceSpan) => {
    for (const kept of applyRuleSettings([diagnostic], settings))
      result.diagnostics.push({ ...kept, location: { file, ...span } });
  };
  for (const [index, { node: document, value: data }] of documents.entries()) {
    result.documents++;
    const kind = kindOfDocument(data);
    const unmanaged = kind ? undefined : unmanagedRootKey(data);
    if (unmanaged) {
      add(unmanagedKind(unmanaged, data as Record<string, unknown>), locate(document, [], lines));
      continue;
    }
    if (!kind) {
      add(unknownKind(data), locate(document, [], lines));
      continue;
    }
    const node = lift(kind, data);
    for (const diagnostic of checkDocument(kind, node, data, settings))
      result.diagnostics.push({
        ...diagnostic,
        location: { file, ...locate(document, diagnostic.path, lines, KEY_CODES.has(diagnostic.code)) },
      });
    if (node.key)
      keep(kind, node.key, data, {
        file,
        document: index,
        location: { file, ...locate(document, [kindRow(kind).rootKey, 'identifier'], lines) },
      });
  }
  if (result.documents === 0 && result.diagnostics.length === 0 && diagnostics.length === 0)
    add(
      {
        code: 'no-documents',
        severity: 'error',
        message: 'has no YAML documents',
        path: [],
        hint: `a file holds one or more documents with a root key ${rootKeyList()}`,
      },
      { line: 1, column: 1 },
    );
  return { result, records };
}

function unknownKind(data: unknown): Diagnostic {
  const keys = isRecord(data) ? Object.keys(data) : [];
  const suggestion = keys
    .map((key) =>
      closest(
        key,
        KINDS.map((row) => row.rootKey),
      ),
    )
    .find(Boolean);
  return {
    code: 'not-a-platform-document',
    severity: 'error',
    message: keys.length
      ? `document has no ${rootKeyList()} root key (found ${keys.map((key) => JSON.stringify(key)).join(', ')})`
      : `document is not a map with a ${rootKeyList()} root key`,
    path: [],
    ...(suggestion
      ? didYouMean(suggestion)
      : { hint: `start the document with one of ${rootKeyList(':, ', ': or ')}:` }),
  };
}
