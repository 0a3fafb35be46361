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

/** Budget (docs/performance.md): the pipeline schema's size. Times are measured by `npm run bench` (schema), not here. */
const SCHEMA_BYTES = 2_000_000;
/** A stage template, as compile writes one (examples/delivery). */
const TEMPLATE = readFileSync(
  join(ROOT, 'examples', 'delivery', 'expected', 'templates', 'default', 'delivery', 'quality_gate', 'v1.yaml'),
  'utf8',
);

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
  const templateSchema = pathToFileURL(join(dir, 'schemas', 'template.schema.json')).href;
  client = new LspClient(process.execPath, [SERVER, '--stdio'], dir);
  client.configuration = {
    yaml: {
      validate: true,
      hover: true,
      completion: true,
      yamlVersion: '1.1',
      schemas: {
        [pathToFileURL(schemaFile).href]: ['valid.yaml', 'long.yaml', 'planted.yaml'],
        [templateSchema]: ['template*.yaml'],
      },
    },
  };
  await client.initialize(pathToFileURL(dir).href);
  await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: client.configuration });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await cleanup();
});

describe('the JSON Schemas in yaml-language-server', () => {
  it('finds no false error in a valid real-shaped pipeline, with a pipeline schema within its size budget', async () => {
    const uri = pathToFileURL(join(dir, 'valid.yaml')).href;
    await writeIn(dir, 'valid.yaml', VALID);
    const next = client.nextDiagnostics(uri, 60_000);
    await client.open(uri, VALID);
    const { diagnostics } = await next;
    expect(diagnostics).toEqual([]);
    expect(statSync(schemaFile).size).toBeLessThan(SCHEMA_BYTES);
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
    const next = client.nextDiagnostics(uri, 60_000);
    await client.open(uri, text);
    const { diagnostics } = await next;
    const found = diagnostics.map((d: Diagnostic) => [d.range.start.line, d.message] as const);
    expect(found).toHaveLength(mistakes.length);
    for (const [line, message] of mistakes) expect(found).toContainEqual([line, expect.stringMatching(message)]);
  }, 60_000);

  it('takes a stage template with the template schema, and finds a mistake planted in its step', async () => {
    const valid = pathToFileURL(join(dir, 'template.yaml')).href;
    const clean = client.nextDiagnostics(valid, 60_000);
    await client.open(valid, TEMPLATE);
    expect((await clean).diagnostics).toEqual([]);
    const wrong = pathToFileURL(join(dir, 'template-planted.yaml')).href;
    const planted = client.nextDiagnostics(wrong, 60_000);
    await client.open(wrong, TEMPLATE.replace('shell: Bash', 'shell: Bashh'));
    const found = (await planted).diagnostics.map((d: Diagnostic) => [d.range.start.line, d.message] as const);
    expect(found).toEqual([
      [TEMPLATE.split('\n').findIndex((line) => line.includes('shell: Bash')), expect.stringMatching(/Bash/)],
    ]);
  }, 60_000);
});
