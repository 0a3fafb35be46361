import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './cli.js';

/**
 * The publish client bundled for browsers (esbuild, platform browser: a Node import would fail the build), and a
 * page that exposes it as `window.pipewright`.
 */
export async function bundleClient(): Promise<string> {
  const result = await build({
    entryPoints: [join(ROOT, 'src/publish/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export const PAGE_HTML = `<!doctype html><meta charset="utf-8"><title>pipewright graphql</title>
<script type="module">import * as pipewright from './client.js'; window.pipewright = pipewright; document.title = 'ready';</script>`;

/** A static server for the page on its own origin (another port is another origin: real CORS). */
export async function servePage(clientJs: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE_HTML);
    else if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(clientJs);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
