import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletionItem, Hover } from 'vscode-languageserver-protocol';
import { BIN, tempDir } from './support/cli.js';
import { LspClient } from './support/lsp-client.js';

/**
 * The language server under load (issue 38), over stdio against the binary: a burst of edits is checked once it
 * settles, never version by version, and no diagnostics of an older version follow a newer one; hovers and
 * completions on pathological lines of 100,000 characters answer. The figures (time to the last diagnostics, hover
 * time) are in `npm run bench -- --only lsp`, not asserted here.
 */

/** A pipeline of `stages` Custom stages of 3 shell steps each (about 1.1 KB a stage), as bench/run.mjs builds it. */
function bigPipeline(stages: number): string {
  const step = (id: string) => `              - step:
                  type: ShellScript
                  name: ${id}
                  identifier: ${id}
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: echo ${id}
                  timeout: 10m
`;
  const stage = (n: number) => `    - stage:
        name: s${n}
        identifier: s${n}
        type: Custom
        spec:
          execution:
            steps:
${[1, 2, 3].map((k) => step(`s${n}_${k}`)).join('')}`;
  return `pipeline:
  name: big
  identifier: big
  projectIdentifier: web
  orgIdentifier: default
  stages:
${Array.from({ length: stages }, (_, n) => stage(n)).join('')}`;
}

let dir: string;
let cleanup: () => Promise<void>;
let client: LspClient;
const uri = (name: string) => pathToFileURL(join(dir, name)).href;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  client = new LspClient(process.execPath, [BIN, 'lsp', '--stdio'], dir);
  await client.initialize(pathToFileURL(dir).href);
});
afterAll(async () => {
  await client?.close();
  await cleanup();
});

describe('pipewright lsp under a burst of edits', () => {
  it('checks 500 quick edits to a 100 KB pipeline a few times, ending with exactly the last version', async () => {
    const file = uri('big.yaml');
    const text = bigPipeline(90);
    expect(text.length).toBeGreaterThan(100_000);
    const opened = client.nextDiagnostics(file);
    await client.open(file, text);
    expect((await opened).diagnostics).toEqual([]);
    const published = client.record(file);
    const line = text.split('\n').findIndex((l) => l.trim() === 'timeout: 10m');
    const edits = 500;
    // Each edit rewrites the same value: version i + 2 holds `timeout: <i>x`, a wrong duration its diagnostic names.
    const sent = [];
    for (let i = 0; i < edits; i++) {
      const old = i === 0 ? '10m' : `${i - 1}x`;
      sent.push(client.edit(file, line, 27, 27 + old.length, `${i}x`, i + 2));
    }
    await Promise.all(sent);
    const last = edits + 1;
    while (published.at(-1)?.version !== last) await client.nextDiagnostics(file);

    // Far fewer checks than edits: a burst is checked when it settles.
    expect(published.length).toBeGreaterThan(0);
    expect(published.length).toBeLessThan(50);
    // Each published set is of the version it says, versions only go up, and the last is the last edit's.
    const versions = published.map((p) => p.version!);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    for (const { version, diagnostics } of published)
      expect(diagnostics.map((d) => d.message)).toEqual([expect.stringContaining(`timeout "${version! - 2}x"`)]);
    expect(published.at(-1)!.diagnostics).toEqual([
      expect.objectContaining({
        code: 'invalid-format',
        range: expect.objectContaining({ start: { line, character: 27 } }),
      }),
    ]);
    // Nothing older arrives after the last version's diagnostics.
    await client.nextDiagnostics(file, 500).catch(() => undefined);
    expect(published.at(-1)!.version).toBe(last);
  });
});

describe('pipewright lsp on pathological lines', () => {
  const n = 100_000;
  const lines: Record<string, string> = {
    'a line of 100,000 blanks': ' '.repeat(n),
    'a key followed by 100,000 blanks and a letter': `                  a${' '.repeat(n)}x`,
    'a line of 100,000 a': 'a'.repeat(n),
    'a line of - - - ...': '- '.repeat(n / 2),
    'a long quoted string': `                  name: "${'a '.repeat(n / 2)}`,
    'a value followed by 100,000 blanks and a letter': `                  nothere: v${' '.repeat(n)}x`,
    'a quoted key never closed': `                  "${'a'.repeat(n)}: x`,
  };
  for (const [name, pathological] of Object.entries(lines))
    it(`answers a hover and a completion on ${name}`, async () => {
      const file = uri(`long-${Object.keys(lines).indexOf(name)}.yaml`);
      const text = `${bigPipeline(1)}${pathological}\n`;
      const line = text.split('\n').length - 2;
      await client.open(file, text);
      for (const character of [0, 18, 19, pathological.length >> 1, pathological.length]) {
        const hover: Hover | null = await client.connection.sendRequest('textDocument/hover', {
          textDocument: { uri: file },
          position: { line, character },
        });
        // None of these lines is a field the schema knows: an answer, and no hover.
        expect(hover).toBeNull();
        const completion: CompletionItem[] = await client.connection.sendRequest('textDocument/completion', {
          textDocument: { uri: file },
          position: { line, character },
        });
        expect(Array.isArray(completion)).toBe(true);
      }
    });

  it('still hovers a field after a pathological line (the negative: the scan reads keys)', async () => {
    const file = uri('long-then-field.yaml');
    const text = `${bigPipeline(1)}                  # ${' '.repeat(n)}x\n`;
    await client.open(file, text);
    const line = text.split('\n').findIndex((l) => l.trim() === 'timeout: 10m');
    const hover: Hover | null = await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: file },
      position: { line, character: 20 },
    });
    expect(JSON.stringify(hover?.contents)).toContain('**timeout**');
  });
});
