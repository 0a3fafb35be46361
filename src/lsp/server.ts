import { fileURLToPath, pathToFileURL } from 'node:url';
import { relative } from 'node:path';
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CompletionItem,
  type Connection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { RuleSettings } from '../check/rule-settings.js';
import { readYaml } from '../yaml/read-yaml.js';
import { fieldSchema } from '../check/schema-position.js';
import { quickFixes } from './code-actions.js';
import { Coalesce } from './coalesce.js';
import { cursorContext } from './cursor-context.js';
import { keyLine, valueOf } from './key-line.js';
import { OpenDocuments } from './open-documents.js';
import { describeType, descriptionOf, isOptional, mapAt, typeNote, valuesFor } from './schema-lookup.js';
import { toLsp } from './to-lsp.js';

/** How long the server waits for another edit before checking (a burst of edits is checked at its end). */
const SETTLE_MS = 30;
/** The longest a check waits while edits keep coming. */
const MAX_WAIT_MS = 300;

/** Codes about files that are not the platform's: an editor opens every YAML file, and only ours are checked. */
const NOT_OURS = new Set(['not-a-platform-document', 'no-documents']);

/**
 * `pipewright lsp`: a language server over stdio for the platform's YAML documents. Diagnostics are validate's
 * (the same reader, document check, check across the open documents, rule settings and disable comments),
 * published for every open document after each change; quick fixes, completions and hovers read the same schema.
 */
export function startLanguageServer(settings?: RuleSettings): Connection {
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  const documents = new TextDocuments(TextDocument);
  const open = new OpenDocuments(settings);
  // validate names files relative to the working directory; the editor speaks in URIs.
  const uriOf = new Map<string, string>();
  const fileOf = (uri: string) => {
    const file = uri.startsWith('file:') ? relative(process.cwd(), fileURLToPath(uri)) || uri : uri;
    uriOf.set(file, uri);
    return file;
  };

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      codeActionProvider: { codeActionKinds: ['quickfix'] },
      completionProvider: { triggerCharacters: [':', ' '] },
      hoverProvider: true,
    },
    serverInfo: { name: 'pipewright' },
  }));

  const publish = () => {
    let results;
    try {
      results = open.diagnose();
    } catch (error) {
      // A bug in a check must not take the editor's server down: it is logged, and the next edit tries again.
      connection.console.error(
        `pipewright: the check failed, a bug to report: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return;
    }
    for (const result of results) {
      const uri = uriOf.get(result.file) ?? pathToFileURL(result.file).href;
      // Diagnostics of a text that is no longer the document's are dropped: the newer text has a check coming.
      const version = versions.get(uri);
      if (version === undefined || documents.get(uri)?.version !== version) continue;
      const diagnostics = result.diagnostics.filter((d) => !NOT_OURS.has(d.code)).flatMap((d) => toLsp(d) ?? []);
      void connection.sendDiagnostics({ uri, version, diagnostics });
    }
  };
  // Edits only store the text: the check (each changed document, then the check across them) runs once a burst
  // of edits settles, on the newest versions.
  const check = new Coalesce(publish, SETTLE_MS, MAX_WAIT_MS);
  /** The version of each open document whose text the next check reads. */
  const versions = new Map<string, number>();
  documents.onDidChangeContent(({ document }) => {
    open.set(fileOf(document.uri), document.getText());
    versions.set(document.uri, document.version);
    check.request();
  });
  documents.onDidClose(({ document }) => {
    open.delete(fileOf(document.uri));
    versions.delete(document.uri);
    parsed.delete(document.uri);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
    check.request();
  });

  connection.onCodeAction(({ textDocument, context }) => {
    const text = documents.get(textDocument.uri)?.getText().split(/\r?\n/) ?? [];
    return context.diagnostics.flatMap((diagnostic) =>
      quickFixes(textDocument.uri, diagnostic, text[diagnostic.range.start.line] ?? ''),
    );
  });

  connection.onCompletion(({ textDocument, position }): CompletionItem[] => {
    const text = documents.get(textDocument.uri)?.getText();
    if (text === undefined) return [];
    const lines = text.split(/\r?\n/);
    const context = cursorContext(lines, position.line, position.character);
    if (!context) return [];
    // The line being written rarely parses: the document is read without it (a value's key kept: a step whose
    // type is being written is still a step).
    const written = context.at.kind === 'value' ? lines[position.line]!.slice(0, context.start) : '';
    const document = readYaml(lines.map((line, i) => (i === position.line ? written : line)).join('\n'), 'completion')
      .documents[0]?.value;
    const place = mapAt(document, context.map);
    if (!place) return [];
    if (context.at.kind === 'value')
      return valuesFor(place, context.at.key, context.map).map((value) => ({
        label: value,
        kind: 20 /* EnumMember */,
      }));
    const keys = [
      ...Object.keys(place.fields.shape),
      ...(place.fields.spec && !('spec' in place.fields.shape) ? ['spec'] : []),
    ];
    return keys
      .filter((key) => !Object.hasOwn(place.value, key))
      .map((key) => {
        const schema = fieldSchema(place.fields, key)!;
        const description = descriptionOf(schema);
        return {
          label: key,
          kind: 10 /* Property */,
          detail: describeType(schema),
          insertText: `${key}: `,
          ...(description ? { documentation: description } : {}),
        };
      });
  });

  /** Each open document's value as read for hovers, kept for its version: hovering along a line reads it once. */
  const parsed = new Map<string, { readonly version: number; readonly value: unknown }>();
  const parsedValue = (uri: string, text: string): unknown => {
    const version = documents.get(uri)?.version ?? -1;
    const kept = parsed.get(uri);
    if (kept?.version === version) return kept.value;
    const value = readYaml(text, 'hover').documents[0]?.value;
    parsed.set(uri, { version, value });
    return value;
  };

  connection.onHover(({ textDocument, position }) => {
    const text = documents.get(textDocument.uri)?.getText();
    if (text === undefined) return null;
    const lines = text.split(/\r?\n/);
    const shape = keyLine(lines[position.line] ?? '');
    if (shape.key === undefined) return null;
    const context = cursorContext(lines, position.line, shape.keyStart);
    const document = parsedValue(textDocument.uri, text);
    const place = context && mapAt(document, context.map);
    if (!place) return null;
    const key = shape.key;
    const written = valueOf(shape);
    const inValue = written !== undefined && position.character > shape.colon!;
    const note = inValue && key === 'type' ? typeNote(written, context.map[context.map.length - 1]) : undefined;
    const schema = fieldSchema(place.fields, key);
    if (!note && !schema) return null;
    const description = schema && descriptionOf(schema);
    const value =
      note ??
      [`**${key}**${isOptional(schema!) ? '' : ' (required)'}: ${describeType(schema!)}`, description]
        .filter(Boolean)
        .join('\n\n');
    return { contents: { kind: 'markdown', value } };
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
