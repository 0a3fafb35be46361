import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { ROOT, runCli, tempDir, writeIn } from './support/cli.js';
import { LspClient } from './support/lsp-client.js';

/**
 * The JSON Schemas `pipewright schema` writes, in Red Hat's yaml-language-server (what VS Code's YAML extension
 * runs), started from node_modules over stdio as an editor starts it.
 */
const SERVER = join(ROOT, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
const VALID = readFileSync(join(ROOT, 'test', 'fixtures', 'editor', 'pipeline_300.yaml'), 'utf8');

/** Budgets (docs/performance.md): the pipeline schema's size, and the server's first diagnostics with it. */
const SCHEMA_BYTES = 2_000_000;
const FIRST_DIAGNOSTICS_MS = 10_000;

/** The valid pipeline with mistakes planted: [line (0-based) where the server reports it, what it says]. */
function planted(): { text: string; mistakes: Array<[number, RegExp]> } {
  const lines = VALID.split('\n');
  const plant = (line: number, from: string, to: string) => {
    expect(lines[line]).toContain(from);
    lines[line] = lines[line]!.replace(from, to);
  };
  plant(22, 'os: Linux', 'os: Linuks'); // an enum of the stage's platform
  plant(34, 'shell: Sh', 'shell: Shh'); // an enum inside a Run step's spec: the schema's branch by step type
  plant(32, 'identifier: version', 'identifer: version'); // a step without its required identifier
  return {
    text: lines.join('\n'),
    mistakes: [
      [22, /Valid values: "Linux", "MacOS", "Windows"/],
      [34, /Valid values: "Sh", "Bash"/],
      [29, /Missing property "identifier"/], // reported at the step's `- step:` line
    ],
  };
}

let dir: string;
let cleanup: () => Promise<void>;
let client: LspClient;
let schemaFile: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  const written = await runCli(['schema', '-o', 'schemas'], { cwd: dir });
  expect(written.code).toBe(0);
  schemaFile = join(dir, 'schemas', 'pipeline.schema.json');
  client = new LspClient(process.execPath, [SERVER, '--stdio'], dir);
  client.configuration = {
    yaml: { validate: true, hover: true, completion: true, yamlVersion: '1.1', schemas: { [pathToFileURL(schemaFile).href]: ['*.yaml'] } },
  };
  await client.initialize(pathToFileURL(dir).href);
  await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: client.configuration });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await cleanup();
});

describe('the JSON Schemas in yaml-language-server', () => {
  it('finds no false error in a valid real-shaped pipeline, and reports the time to first diagnostics', async () => {
    const uri = pathToFileURL(join(dir, 'valid.yaml')).href;
    await writeIn(dir, 'valid.yaml', VALID);
    const start = performance.now();
    const next = client.nextDiagnostics(uri, 60_000);
    await client.open(uri, VALID);
    const { diagnostics } = await next;
    const ms = performance.now() - start;
    const bytes = statSync(schemaFile).size;
    console.log(`yaml-language-server: first diagnostics of a ${VALID.split('\n').length}-line pipeline in ${ms.toFixed(0)} ms (pipeline schema ${bytes} bytes)`);
    expect(diagnostics).toEqual([]);
    expect(bytes).toBeLessThan(SCHEMA_BYTES);
    expect(ms).toBeLessThan(FIRST_DIAGNOSTICS_MS);
  }, 60_000);

  it('finds no false error in the 648-line pipeline either (plain Ajv overflowed its stack on a 285-line one)', async () => {
    const uri = pathToFileURL(join(dir, 'long.yaml')).href;
    const next = client.nextDiagnostics(uri, 60_000);
    await client.open(uri, readFileSync(join(ROOT, 'test', 'fixtures', 'editor', 'pipeline_600.yaml'), 'utf8'));
    expect((await next).diagnostics).toEqual([]);
  }, 60_000);

  it('finds the planted mistakes', async () => {
    const uri = pathToFileURL(join(dir, 'planted.yaml')).href;
    const { text, mistakes } = planted();
    const start = performance.now();
    const next = client.nextDiagnostics(uri, 60_000);
    await client.open(uri, text);
    const { diagnostics } = await next;
    console.log(`yaml-language-server: diagnostics of a second document (schema loaded) in ${(performance.now() - start).toFixed(0)} ms`);
    const found = diagnostics.map((d: Diagnostic) => [d.range.start.line, d.message] as const);
    expect(found).toHaveLength(mistakes.length);
    for (const [line, message] of mistakes) expect(found).toContainEqual([line, expect.stringMatching(message)]);
  }, 60_000);
});
