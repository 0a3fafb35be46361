import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A hostile platform for the tests: an HTTP(S) server on 127.0.0.1 in front of the emulator that forwards every
 * request, except those its plan answers with an attack (a redirect elsewhere, an endless or huge body, a
 * malformed or rewritten answer, a storm of 5xx). Beside it, `KeyCatcher` is "another host": a second server on
 * another port that records every request it gets and whether it carried the key.
 */

export interface HostileRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** How many requests this server has seen before this one. */
  readonly seen: number;
}

export type Attack =
  /** `Location: to` with this status (default 307). */
  | { readonly kind: 'redirect'; readonly to: string; readonly status?: number }
  /** 200 with a JSON start and then bytes forever (until the client goes, or `ENDLESS_CAP` bytes). */
  | { readonly kind: 'endless-body' }
  /** 200 with `bytes` of body; `declared`: with a Content-Length saying so up front. */
  | { readonly kind: 'huge-body'; readonly bytes: number; readonly declared?: boolean }
  /** This answer instead of the emulator's. */
  | { readonly kind: 'answer'; readonly status: number; readonly body: string; readonly contentType?: string }
  /** The emulator's JSON answer, rewritten. */
  | { readonly kind: 'rewrite'; readonly rewrite: (answer: Record<string, unknown>) => unknown };

export type Plan = (request: HostileRequest) => Attack | undefined;

/** The most an endless body sends, whatever happens: a test that forgets to cancel still ends. */
export const ENDLESS_CAP = 1024 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

export interface HostileRecord {
  readonly method: string;
  readonly path: string;
  readonly attack?: Attack['kind'];
}

export class HostileServer {
  readonly requests: HostileRecord[] = [];
  /** Bytes of body sent by the endless and huge answers (the client's cancel stops them). */
  bodyBytesSent = 0;
  url = '';
  plan: Plan;
  readonly #upstream: string;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #tls: boolean;

  /** `upstream`: the emulator's origin (its URL without a prefix). */
  constructor(upstream: string, plan: Plan, tls?: { key: string; cert: string }) {
    this.#upstream = new URL(upstream).origin;
    this.plan = plan;
    this.#tls = tls !== undefined;
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.#handle(req, res);
    this.#server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
    this.#server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.url = `${this.#tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const attack = this.plan({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      seen: this.requests.length,
    });
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, ...(attack ? { attack: attack.kind } : {}) });
    try {
      if (!attack) return await this.#forward(req, url, body, res);
      switch (attack.kind) {
        case 'redirect':
          res.writeHead(attack.status ?? 307, { location: attack.to, 'content-type': 'text/plain' });
          res.end('moved');
          return;
        case 'endless-body':
          return await this.#stream(res, ENDLESS_CAP, false);
        case 'huge-body':
          return await this.#stream(res, attack.bytes, attack.declared ?? false);
        case 'answer':
          res.writeHead(attack.status, { 'content-type': attack.contentType ?? 'application/json' });
          res.end(attack.body);
          return;
        case 'rewrite': {
          const answer = await this.#fetch(req, url, body);
          const rewritten = JSON.stringify(attack.rewrite(JSON.parse(answer.text) as Record<string, unknown>));
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(rewritten);
          return;
        }
      }
    } catch {
      res.destroy();
    }
  }

  async #fetch(req: IncomingMessage, url: URL, body: Buffer): Promise<{ status: number; text: string; type: string }> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name))
        headers.set(name, value);
    const response = await fetch(`${this.#upstream}${url.pathname}${url.search}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length ? { body: new Uint8Array(body) } : {}),
    });
    return {
      status: response.status,
      text: await response.text(),
      type: response.headers.get('content-type') ?? 'application/json',
    };
  }

  async #forward(req: IncomingMessage, url: URL, body: Buffer, res: ServerResponse): Promise<void> {
    const answer = await this.#fetch(req, url, body);
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.text);
  }

  /** `bytes` of a JSON-looking body, written as fast as the client reads; stops when the client goes. */
  async #stream(res: ServerResponse, bytes: number, declared: boolean): Promise<void> {
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(declared ? { 'content-length': String(bytes) } : {}),
    });
    let closed = false;
    res.on('close', () => (closed = true));
    const start = Buffer.from('{"status":"SUCCESS","data":"');
    res.write(start);
    let sent = start.length;
    // A declared length is a promise the server need not keep: the client must refuse it before reading.
    const toSend = declared ? Math.min(bytes, 1024 * 1024) : bytes;
    while (!closed && sent < toSend) {
      const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, toSend - sent));
      sent += chunk.length;
      this.bodyBytesSent += chunk.length;
      if (!res.write(chunk)) await drainOrClose(res);
    }
    if (!closed) res.end(declared ? '' : '"}');
  }
}

export interface CaughtRequest {
  readonly method: string;
  readonly url: string;
  /** The request carried the key: in `x-api-key`, any other header, the URL or the body. */
  readonly hadKey: boolean;
}

/** "Another host": answers everything with a plausible SUCCESS, and records whether the key came with it. */
export class KeyCatcher {
  readonly received: CaughtRequest[] = [];
  url = '';
  readonly #keys: readonly string[];
  readonly #server: Server;

  constructor(keys: readonly string[]) {
    this.#keys = keys;
    this.#server = createHttpServer((req, res) => {
      void readBody(req).then((body) => {
        const seen = [JSON.stringify(req.headers), req.url ?? '', body.toString('utf8')].join('\n');
        this.received.push({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          hadKey: this.#keys.some((key) => seen.includes(key)),
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'SUCCESS', data: { content: [], totalItems: 0, totalPages: 0 } }));
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** Waits until the response can take more, or is gone; the listeners go with the wait. */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
