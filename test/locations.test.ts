import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, type AnyResource } from 'pipewright';
import { kindOfDocument } from '../src/catalog/kinds.js';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { sortDiagnostics, type Diagnostic, type DiagnosticLocation } from '../src/core/diagnostics.js';
import { validateFiles } from '../src/validate/validate-files.js';
import { locate } from '../src/yaml/yaml-locate.js';
import { readPlainYaml } from '../src/yaml/read-plain-yaml.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { ROOT, runCli, tempDir, writeIn } from './support/cli.js';
import { shellStepLines } from './support/fixtures.js';

// Diagnostics carry their place as data (docs/cli.md#json-output): a YAML node's start and end, a builder call's
// start, or a whole file; and, for a did-you-mean, the name meant as `suggestion`.

type JsonDiagnostic = Record<string, unknown> & { location?: DiagnosticLocation };
const diagnosticsOf = (stdout: string) => (JSON.parse(stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir('pipewright-locations-')));
afterAll(() => cleanup());

describe('--json locations and suggestions', () => {
  it('validate: each YAML diagnostic has its node as a range, a typo its suggestion', async () => {
    const fixture = 'test/fixtures/invalid/key-typo-step.yaml';
    const result = await runCli(['validate', fixture, '--json']);
    expect(result.code).toBe(1);
    expect(
      diagnosticsOf(result.stdout).map(({ code, location, suggestion }) => ({ code, location, suggestion })),
    ).toEqual([
      // `scipt` (5 characters) and `timout` (6): the key, from its first character to just after its last.
      {
        code: 'unknown-key',
        location: { file: fixture, line: 24, column: 25, endLine: 24, endColumn: 30 },
        suggestion: 'script',
      },
      {
        code: 'unknown-key',
        location: { file: fixture, line: 25, column: 19, endLine: 25, endColumn: 25 },
        suggestion: 'timeout',
      },
    ]);
  });

  it('validate: a reference to a stage that is not there, with a close name, suggests it', async () => {
    await writeIn(
      dir,
      'refs.yaml',
      [
        'pipeline:',
        '  identifier: refs',
        '  name: refs',
        '  projectIdentifier: web',
        '  orgIdentifier: default',
        '  stages:',
        '    - stage:',
        '        identifier: build',
        '        name: build',
        '        type: Custom',
        '        spec:',
        '          execution:',
        '            steps:',
        ...shellStepLines('echo', 'echo <+pipeline.stages.bild.name>'),
        '',
      ].join('\n'),
    );
    const result = await runCli(['validate', 'refs.yaml', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const [reference] = diagnosticsOf(result.stdout);
    expect(reference).toMatchObject({
      code: 'unknown-reference',
      hint: 'did you mean "build"?',
      suggestion: 'build',
      // The string that holds the expression: `echo <+pipeline.stages.bild.name>`, 33 characters.
      location: { file: 'refs.yaml', line: 25, column: 33, endLine: 25, endColumn: 66 },
    });
  });

  it('compile: a builder diagnostic is at the builder call (a point), an unknown option suggests the close one', async () => {
    await writeIn(
      dir,
      'defs/p.ts',
      [
        "import { custom, pipeline, shell } from 'pipewright';",
        "export const p = pipeline({ identifier: 'p', project: 'web' })",
        "  .stage(custom({ identifier: 's' }))",
        "  .step(shell({ identifier: 'echo', script: 'echo hi', timout: '10m' }));",
        '',
      ].join('\n'),
    );
    const result = await runCli(['compile', 'defs/p.ts', '-o', 'out', '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(diagnosticsOf(result.stdout)).toEqual([
      expect.objectContaining({
        code: 'unknown-option',
        message: 'shell() has no option "timout"',
        hint: 'did you mean "timeout"?',
        suggestion: 'timeout',
        location: { file: 'defs/p.ts', line: 4, column: 9 },
        file: 'defs/p.ts',
        line: 4,
        column: 9,
      }),
    ]);
    // The terminal prints the location as it always did.
    const text = await runCli(['compile', 'defs/p.ts', '-o', 'out'], { cwd: dir });
    expect(text.stderr).toMatch(
      /^defs\/p\.ts:4:9 {2}pipeline "p" > stage "s" > step "echo": shell\(\) has no option "timout" \[error unknown-option\]\n {4}hint: did you mean "timeout"\?\n/,
    );
  });
});

describe('sorting by location', () => {
  const at = (message: string, location?: DiagnosticLocation): Diagnostic => ({
    code: 'invalid-value',
    severity: 'error',
    message,
    path: [],
    ...(location ? { location } : {}),
  });

  it('orders by file, then line and column as numbers; a whole file before its lines, no place last, then by message', () => {
    const sorted = sortDiagnostics([
      at('none'),
      at('b 10:1', { file: 'b.yaml', line: 10, column: 1 }),
      at('b 9:12', { file: 'b.yaml', line: 9, column: 12 }),
      at('b 9:3 second', { file: 'b.yaml', line: 9, column: 3, endLine: 9, endColumn: 4 }),
      at('b 9:3 first', { file: 'b.yaml', line: 9, column: 3 }),
      at('b whole', { file: 'b.yaml' }),
      at('a 100:1', { file: 'a.yaml', line: 100, column: 1 }),
      // A file whose name looks like a place: text parsed back would read it as `weird` at line 1.
      at('weird', { file: 'weird:1:1' }),
    ]);
    expect(sorted.map((d) => d.message)).toEqual([
      'a 100:1',
      'b whole',
      'b 9:3 first',
      'b 9:3 second',
      'b 9:12',
      'b 10:1',
      'weird',
      'none',
    ]);
  });
});

const FIXTURES = (await glob('test/fixtures/{valid,invalid,import}/*.yaml', { cwd: ROOT })).sort();

describe('every producer sets the location', () => {
  it('validate: every diagnostic of every fixture is in its file, at a line and column, its end not before its start', async () => {
    const results = await validateFiles(FIXTURES.map((file) => join(ROOT, file)));
    const diagnostics = results.flatMap((result) =>
      result.diagnostics.map((diagnostic) => ({ file: result.file, diagnostic })),
    );
    // The invalid fixtures have something to say: the check is not vacuous.
    expect(diagnostics.length).toBeGreaterThan(40);
    for (const { file, diagnostic } of diagnostics) {
      const { location } = diagnostic;
      expect(location, `${diagnostic.code} in ${file}`).toMatchObject({
        file,
        line: expect.any(Number),
        column: expect.any(Number),
      });
      expect(location.line).toBeGreaterThanOrEqual(1);
      expect(location.column).toBeGreaterThanOrEqual(1);
      if (location.endLine !== undefined) {
        expect(location.endColumn).toEqual(expect.any(Number));
        expect(
          location.endLine > location.line ||
            (location.endLine === location.line && location.endColumn! > location.column),
        ).toBe(true);
      }
    }
    // Document paths located at a node have its end.
    expect(
      diagnostics.filter(({ diagnostic }) => diagnostic.path.length > 0 && diagnostic.location.endLine === undefined),
    ).toEqual([]);
  });

  it('compile: every diagnostic of the invalid fixtures, built as raw builders here, is at a line of this file', async () => {
    const found: Array<{ resource: AnyResource; file: string; exportName: string }> = [];
    for (const file of FIXTURES.filter((name) => name.includes('/invalid/'))) {
      for (const { value } of readYaml(await readFile(join(ROOT, file), 'utf8'), file).documents) {
        const kind = kindOfDocument(value);
        if (kind)
          found.push({ resource: raw[kind](value as never) as AnyResource, file, exportName: `doc${found.length}` });
      }
    }
    const { diagnostics } = buildAndValidate(found);
    expect(diagnostics.length).toBeGreaterThan(40);
    for (const diagnostic of diagnostics)
      expect(diagnostic.location, diagnostic.code).toEqual({
        file: 'test/locations.test.ts',
        line: expect.any(Number),
        column: expect.any(Number),
      });
  });
});

describe("the fast reader's positions", () => {
  it.each([
    ['a plain scalar', 'project:\n  identifier: web\n  name: web\n'],
    ['a quoted scalar with a comment after it', 'project:\n  identifier: "web" # the shop\n  name: web\n'],
    ["a single-quoted scalar with ''", "project:\n  identifier: 'we''b'\n  name: web\n"],
  ])('are what the exact reader locates, end included, for %s', (_what, text) => {
    const plain = readPlainYaml(text)!.positions.get(['project', 'identifier']);
    const exact = readYaml(text, 'x.yaml');
    expect(plain).toEqual(locate(exact.documents[0]!.node, ['project', 'identifier'], exact.lines));
    expect(plain!.endColumn).toBeGreaterThan(plain!.column);
  });
});
