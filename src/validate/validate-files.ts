import { readFile } from 'node:fs/promises';
import type { Document, LineCounter } from 'yaml';
import type { Diagnostic } from '../compile/diagnostics.js';
import { describePath } from '../compile/document-path.js';
import { closest } from '../compile/suggest.js';
import { describeKey, documentKind, keyString, resourceKey, validateDocument } from '../compile/validate.js';
import { kindRow, KINDS, rootKeyList } from '../catalog/kinds.js';
import { readYaml } from '../yaml/read-yaml.js';
import { locate, type Position } from './yaml-locate.js';

/** A diagnostic with its place in a YAML file. */
export interface LocatedDiagnostic extends Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface FileResult {
  readonly file: string;
  readonly source: string;
  /** Documents found in the file (a multi-document file counts each). */
  documents: number;
  readonly diagnostics: LocatedDiagnostic[];
}

/** Diagnostics that are about a key rather than its value. */
const KEY_CODES = new Set(['unknown-key']);

interface ParsedDocument {
  readonly file: string;
  readonly document: Document;
  readonly data: unknown;
}

/** Parses, validates and locates every document of every file, then checks what spans documents. */
export async function validateFiles(files: readonly string[]): Promise<FileResult[]> {
  const results: FileResult[] = [];
  const parsed: Array<ParsedDocument & { lines: LineCounter; result: FileResult }> = [];
  for (const file of files) {
    const source = await readFile(file, 'utf8');
    const result: FileResult = { file, source, documents: 0, diagnostics: [] };
    results.push(result);
    const { documents, diagnostics, lines } = readYaml(source, file);
    for (const problem of diagnostics) result.diagnostics.push({ ...problem, file });
    const add = (diagnostic: Diagnostic, position: Position) =>
      result.diagnostics.push({ ...diagnostic, file, line: position.line, column: position.column, at: `${file}:${position.line}:${position.column}` });
    for (const { node: document, value: data } of documents) {
      result.documents++;
      const kind = documentKind(data);
      if (!kind) {
        add(unknownKind(data), locate(document, [], lines));
        continue;
      }
      for (const diagnostic of validateDocument(kind, data))
        add(diagnostic, locate(document, diagnostic.path, lines, KEY_CODES.has(diagnostic.code)));
      parsed.push({ file, document, data, lines, result });
    }
    if (result.documents === 0 && result.diagnostics.length === 0)
      add({ code: 'empty-file', severity: 'error', message: 'has no YAML documents', path: [], hint: `a file holds one or more documents with a root key ${rootKeyList()}` }, { line: 1, column: 1 });
  }
  duplicateResources(parsed);
  for (const result of results) result.diagnostics.sort((a, b) => a.line - b.line || a.column - b.column || (a.message < b.message ? -1 : 1));
  return results;
}

function unknownKind(data: unknown): Diagnostic {
  const keys = typeof data === 'object' && data !== null && !Array.isArray(data) ? Object.keys(data) : [];
  const suggestion = keys.map((key) => closest(key, KINDS.map((row) => row.rootKey))).find(Boolean);
  return {
    code: 'unknown-kind',
    severity: 'error',
    message: keys.length
      ? `document has no ${rootKeyList()} root key (found ${keys.map((key) => JSON.stringify(key)).join(', ')})`
      : `document is not a map with a ${rootKeyList()} root key`,
    path: [],
    hint: suggestion ? `did you mean "${suggestion}"?` : `start the document with one of ${rootKeyList(':, ', ': or ')}:`,
  };
}

/** The same resource (kind, scope, identifier) in two documents: publishing would let one overwrite the other. */
function duplicateResources(parsed: ReadonlyArray<ParsedDocument & { lines: LineCounter; result: FileResult }>): void {
  const seen = new Map<string, string>();
  for (const entry of parsed) {
    const kind = documentKind(entry.data)!;
    const key = resourceKey(kind, entry.data);
    if (!key) continue;
    const path = [kindRow(kind).rootKey, 'identifier'];
    const position = locate(entry.document, path, entry.lines);
    const here = `${entry.file}:${position.line}:${position.column}`;
    const first = seen.get(keyString(key));
    if (!first) {
      seen.set(keyString(key), here);
      continue;
    }
    entry.result.diagnostics.push({
      code: 'duplicate-resource',
      severity: 'error',
      message: `${describeKey(key)} is defined twice`,
      path,
      subject: describePath(entry.data, [kindRow(kind).rootKey]).subject,
      hint: `the other one is at ${first}; rename one identifier`,
      file: entry.file,
      line: position.line,
      column: position.column,
      at: here,
    });
  }
}
