import { spawn, type ChildProcess } from 'node:child_process';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

/**
 * A real language client over stdio: JSON-RPC against a server process (the pipewright binary, or any other
 * server's command), with a way to wait for the next diagnostics of a document.
 */
export class LspClient {
  readonly connection: MessageConnection;
  readonly #child: ChildProcess;
  readonly #waiting = new Map<string, Array<(params: PublishDiagnosticsParams) => void>>();
  readonly latest = new Map<string, PublishDiagnosticsParams>();
  readonly #recorded = new Map<string, PublishDiagnosticsParams[]>();
  stderr = '';
  /** What the client answers `workspace/configuration` with, by section (`yaml` for yaml-language-server). */
  configuration: Record<string, unknown> = {};

  constructor(command: string, args: readonly string[], cwd: string) {
    this.#child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.connection = createMessageConnection(
      new StreamMessageReader(this.#child.stdout!),
      new StreamMessageWriter(this.#child.stdin!),
    );
    this.connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.latest.set(params.uri, params);
      this.#recorded.get(params.uri)?.push(params);
      const waiting = this.#waiting.get(params.uri) ?? [];
      this.#waiting.delete(params.uri);
      for (const resolve of waiting) resolve(params);
    });
    // yaml-language-server asks its client for settings and registrations: answer as an editor would.
    this.connection.onRequest('workspace/configuration', (params: { items: Array<{ section?: string }> }) =>
      params.items.map((item) => (item.section ? (this.configuration[item.section] ?? null) : this.configuration)),
    );
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification(() => {});
    this.connection.listen();
  }

  async initialize(rootUri: string, initializationOptions?: unknown): Promise<unknown> {
    const result = await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      capabilities: {
        textDocument: {
          publishDiagnostics: {},
          completion: { completionItem: { snippetSupport: false } },
          hover: {},
          codeAction: {},
        },
        workspace: { configuration: true },
      },
      ...(initializationOptions ? { initializationOptions } : {}),
    });
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  /** The next diagnostics published for `uri` (after what the caller sends next). */
  nextDiagnostics(uri: string, timeout = 20_000): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no diagnostics for ${uri} in ${timeout} ms; server stderr: ${this.stderr}`)),
        timeout,
      );
      const list = this.#waiting.get(uri) ?? [];
      list.push((params) => {
        clearTimeout(timer);
        resolve(params);
      });
      this.#waiting.set(uri, list);
    });
  }

  open(uri: string, text: string, version = 1, languageId = 'yaml'): Promise<void> {
    return this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version, text },
    });
  }

  change(uri: string, text: string, version: number): Promise<void> {
    return this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  /** An incremental change: `text` replaces the range of one line from `start` to `end` (columns). */
  edit(uri: string, line: number, start: number, end: number, text: string, version: number): Promise<void> {
    return this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line, character: start }, end: { line, character: end } }, text }],
    });
  }

  /** Every diagnostics notification for `uri` from now on, in the order they arrive. */
  record(uri: string): PublishDiagnosticsParams[] {
    const all: PublishDiagnosticsParams[] = [];
    this.#recorded.set(uri, all);
    return all;
  }

  async close(): Promise<void> {
    await this.connection.sendRequest('shutdown').catch(() => undefined);
    await this.connection.sendNotification('exit').catch(() => undefined);
    await new Promise<void>((resolve) => {
      if (this.#child.exitCode !== null) return resolve();
      const timer = setTimeout(() => {
        this.#child.kill();
        resolve();
      }, 3000);
      this.#child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.connection.dispose();
  }
}
