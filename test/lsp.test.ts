import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction, CompletionItem, Hover } from 'vscode-languageserver-protocol';
import { STEP_TYPES } from '../src/catalog/catalog.js';
import { BIN, tempDir } from './support/cli.js';
import { LspClient } from './support/lsp-client.js';

/** A pipeline of one Custom stage with one shell step; `stepExtra` lines go into the step, at its indentation. */
const pipeline = (identifier: string, stepLines: string[] = ['timeout: 1m']) => `pipeline:
  name: ${identifier}
  identifier: ${identifier}
  projectIdentifier: web
  orgIdentifier: default
  stages:
    - stage:
        name: s
        identifier: s
        type: Custom
        spec:
          execution:
            steps:
              - step:
                  name: x
                  identifier: x
                  type: ShellScript
${stepLines.map((line) => `                  ${line}`).join('\n')}
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: echo
`;

let dir: string;
let cleanup: () => Promise<void>;
let client: LspClient;
const uri = (name: string) => pathToFileURL(join(dir, name)).href;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  client = new LspClient(process.execPath, [BIN, 'lsp', '--stdio'], dir);
  const result = (await client.initialize(pathToFileURL(dir).href)) as { capabilities: Record<string, unknown> };
  expect(result.capabilities).toMatchObject({
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: ['quickfix'] },
    completionProvider: {},
  });
});
afterAll(async () => {
  await client?.close();
  await cleanup();
});

describe('pipewright lsp, over stdio against the binary', () => {
  it("publishes validate's diagnostics with ranges, codes and the did-you-mean, then clears them when fixed", async () => {
    const file = uri('typo.yaml');
    const next = client.nextDiagnostics(file);
    await client.open(file, pipeline('typo', ['timout: 1m']));
    const { diagnostics } = await next;
    // A near miss of an optional key is a warning (LSP severity 2): the platform ignores the key (docs/fidelity.md).
    expect(diagnostics).toMatchObject([
      {
        code: 'unknown-key',
        severity: 2,
        source: 'pipewright',
        range: { start: { line: 17, character: 18 }, end: { line: 17, character: 24 } },
        data: { suggestion: 'timeout' },
      },
    ]);
    const fixed = client.nextDiagnostics(file);
    await client.change(file, pipeline('typo'), 2);
    expect((await fixed).diagnostics).toEqual([]);
  });

  it("leaves YAML that is not the platform's alone", async () => {
    const file = uri('compose.yaml');
    const next = client.nextDiagnostics(file);
    await client.open(file, 'services:\n  web:\n    image: nginx\n');
    expect((await next).diagnostics).toEqual([]);
  });

  it('gives a secret document the warning validate and import give it, and nothing of its value', async () => {
    const file = uri('secret.yaml');
    const next = client.nextDiagnostics(file);
    await client.open(
      file,
      'secret:\n  identifier: db\n  type: SecretText\n  spec:\n    valueType: Inline\n    value: hunter2-lsp\n',
    );
    const { diagnostics } = await next;
    expect(diagnostics).toMatchObject([
      {
        code: 'unmanaged-kind',
        severity: 2,
        source: 'pipewright',
        range: { start: { line: 0, character: 0 } },
        message: expect.stringContaining('secret documents are not managed by pipewright'),
      },
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain('hunter2-lsp');
  });

  it('offers quick fixes: the did-you-mean, and a disable comment that then suppresses the diagnostic', async () => {
    const file = uri('fix.yaml');
    const text = pipeline('fix', ['timout: 1m']);
    const next = client.nextDiagnostics(file);
    await client.open(file, text);
    const [diagnostic] = (await next).diagnostics;
    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: file },
      range: diagnostic!.range,
      context: { diagnostics: [diagnostic] },
    })) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual([
      'Change to "timeout"',
      'Suppress unknown-key on this line (# pipewright-disable-next-line)',
    ]);
    expect(actions[0]!.edit!.changes![file]).toEqual([{ range: diagnostic!.range, newText: 'timeout' }]);
    const [comment] = actions[1]!.edit!.changes![file]!;
    expect(comment).toEqual({
      range: { start: { line: 17, character: 0 }, end: { line: 17, character: 0 } },
      newText: '                  # pipewright-disable-next-line unknown-key -- \n',
    });
    // The comment as inserted has no reason yet: it suppresses nothing and asks for one.
    const lines = text.split('\n');
    lines.splice(17, 0, comment!.newText.slice(0, -1));
    const asked = client.nextDiagnostics(file);
    await client.change(file, lines.join('\n'), 2);
    expect((await asked).diagnostics.map((d) => d.code)).toEqual(['invalid-suppression', 'unknown-key']);
    lines[17] += 'the platform reads it';
    const quiet = client.nextDiagnostics(file);
    await client.change(file, lines.join('\n'), 3);
    expect((await quiet).diagnostics).toEqual([]);
  });

  it('checks across the open documents: the same pipeline twice, and an input set against its pipeline', async () => {
    const a = uri('a.yaml');
    const b = uri('b.yaml');
    const first = client.nextDiagnostics(a);
    await client.open(a, pipeline('same'));
    expect((await first).diagnostics).toEqual([]);
    const both = client.nextDiagnostics(b);
    const aAgain = client.nextDiagnostics(a);
    await client.open(b, pipeline('same'));
    const [ofB, ofA] = await Promise.all([both, aAgain]);
    expect([...ofA.diagnostics, ...ofB.diagnostics].map((d) => d.code)).toContain('duplicate-resource');
    const target = uri('target.yaml');
    const targetDiagnostics = client.nextDiagnostics(target);
    await client.open(target, pipeline('target'));
    await targetDiagnostics;
    const set = uri('set.yaml');
    const setDiagnostics = client.nextDiagnostics(set);
    await client.open(
      set,
      `inputSet:\n  name: s\n  identifier: s\n  orgIdentifier: default\n  projectIdentifier: web\n  pipeline:\n    identifier: target\n    stages:\n      - stage:\n          identifier: s\n          type: Custom\n          spec:\n            execution:\n              steps:\n                - step:\n                    identifier: x\n                    type: ShellScript\n                    timeout: 5m\n`,
    );
    expect((await setDiagnostics).diagnostics.map((d) => d.code)).toContain('input-set-not-an-input');
  });

  it('completes keys of the map at the cursor, step types the stage may run, and enum values', async () => {
    const file = uri('complete.yaml');
    const text = pipeline('complete', ['timeout: 1m', 'ti']);
    const next = client.nextDiagnostics(file);
    await client.open(file, text);
    await next;
    const labels = async (line: number, character: number) =>
      (
        (await client.connection.sendRequest('textDocument/completion', {
          textDocument: { uri: file },
          position: { line, character },
        })) as CompletionItem[]
      ).map((c) => c.label);
    const keys = await labels(18, 20);
    expect(keys).toEqual(expect.arrayContaining(['when', 'failureStrategies', 'description']));
    expect(keys).not.toContain('timeout'); // written already
    expect(keys).not.toContain('stages');
    // Values, in a document whose other lines are whole (the unfinished key above does not parse).
    await client.change(file, pipeline('complete'), 2);
    const stepTypes = await labels(16, 24);
    expect(stepTypes).toEqual(expect.arrayContaining(['ShellScript', 'Http', 'Wait']));
    // The catalogue's placement: a Custom stage cannot run a Kubernetes deploy step (a Deployment stage's).
    expect(stepTypes).not.toContain('K8sRollingDeploy');
    expect(stepTypes.length).toBeLessThan(STEP_TYPES.length);
    expect(await labels(19, 27)).toEqual(expect.arrayContaining(['Bash', 'PowerShell']));
    expect(await labels(9, 14)).toEqual(expect.arrayContaining(['Custom', 'CI', 'Deployment', 'Approval']));
  });

  it('hovers a field with its type, and a step type with its builder', async () => {
    const file = uri('hover.yaml');
    const next = client.nextDiagnostics(file);
    await client.open(file, pipeline('hover'));
    await next;
    const hover = async (line: number, character: number) =>
      (
        (await client.connection.sendRequest('textDocument/hover', {
          textDocument: { uri: file },
          position: { line, character },
        })) as Hover | null
      )?.contents;
    expect(await hover(19, 22)).toMatchObject({
      kind: 'markdown',
      value: expect.stringMatching(/^\*\*shell\*\* \(required\): one of .*Bash/),
    });
    expect(await hover(15, 20)).toMatchObject({
      value: expect.stringMatching(/^\*\*identifier\*\* \(required\): string/),
    });
    expect(await hover(16, 26)).toMatchObject({
      value: expect.stringContaining('step type `ShellScript`: built by `shellScript()`'),
    });
  });
});
