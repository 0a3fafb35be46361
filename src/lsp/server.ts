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
import { cursorContext } from './cursor-context.js';
import { OpenDocuments } from './open-documents.js';
import { describeType, descriptionOf, isOptional, mapAt, typeNote, valuesFor } from './schema-lookup.js';
import { toLsp } from './to-lsp.js';

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
      const diagnostics = result.diagnostics.filter((d) => !NOT_OURS.has(d.code)).flatMap((d) => toLsp(d) ?? []);
      void connection.sendDiagnostics({ uri, diagnostics });
    }
  };
  documents.onDidChangeContent(({ document }) => {
    open.set(fileOf(document.uri), document.getText());
    publish();
  });
  documents.onDidClose(({ document }) => {
    open.delete(fileOf(document.uri));
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
    publish();
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

  connection.onHover(({ textDocument, position }) => {
    const text = documents.get(textDocument.uri)?.getText();
    if (text === undefined) return null;
    const lines = text.split(/\r?\n/);
    const line = lines[position.line] ?? '';
    const match =
      /^([ \t]*(?:-[ \t]+)?)(["']?)([^\s#'":][^#:]*?)\2[ \t]*:(?:[ \t]+([^#\s][^#]*?))?[ \t]*(?:#.*)?$/.exec(line);
    if (!match) return null;
    const keyStart = match[1]!.length;
    const context = cursorContext(lines, position.line, keyStart);
    const document = readYaml(text, 'hover').documents[0]?.value;
    const place = context && mapAt(document, context.map);
    if (!place) return null;
    const key = match[3]!;
    const inValue = match[4] !== undefined && position.character > line.indexOf(':', keyStart);
    const note = inValue && key === 'type' ? typeNote(match[4]!, context.map[context.map.length - 1]) : undefined;
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
