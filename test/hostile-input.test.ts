import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, readTree, tempDir, writeIn } from './support/cli.js';

/**
 * Hostile input: every case ends with exit 1, a located and actionable message, no stack trace, and the
 * previous output folder exactly as it was.
 */
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const write = (file: string, text: string | Buffer) => writeIn(dir, file, text);

const tree = readTree;

const GOOD = `import { project } from 'pipewright';\nexport const web = project({ identifier: 'web' });\n`;

/** Compiles a good file, then `hostile` files, and checks the failure is clean and out/ untouched. */
async function expectCleanFailure(files: Record<string, string | Buffer>, expected: RegExp): Promise<string> {
  await write('good/web.ts', GOOD);
  expect((await runCli(['compile', 'good/web.ts', '-o', 'out'], { cwd: dir })).code).toBe(0);
  const before = await tree(join(dir, 'out'));
  for (const [file, text] of Object.entries(files)) await write(file, text);
  const result = await runCli(['compile', ...Object.keys(files), '-o', 'out'], { cwd: dir });
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(expected);
  expect(result.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
  expect(await tree(join(dir, 'out'))).toEqual(before);
  expect((await readdir(dir)).filter((f) => f.startsWith('.out'))).toEqual([]);
  return result.stderr;
}

describe('compile survives hostile input', () => {
  it('a syntax error in user TypeScript', async () => {
    await expectCleanFailure(
      { 'bad/syntax.ts': 'export const = ;\n' },
      /^bad\/syntax\.ts:1:14  Expected identifier but found "="/,
    );
  });

  it('a definition file that throws', async () => {
    await expectCleanFailure(
      {
        'bad/throws.ts': `import { project } from 'pipewright';\nconst region = process.env.NOPE!.toLowerCase();\nexport const p = project({ identifier: region });\n`,
      },
      /^bad\/throws\.ts:2:\d+  loading the definitions threw: Cannot read properties of undefined/,
    );
  });

  it('circular imports that read a value before it exists (bundled, the value is undefined)', async () => {
    await expectCleanFailure(
      {
        'bad/a.ts': `import { shared } from './b.js';\nimport { project } from 'pipewright';\nexport const a = project({ identifier: shared });\nexport const name = 'a';\n`,
        'bad/b.ts': `import { name } from './a.js';\nexport const shared = name.toUpperCase();\n`,
      },
      /^bad\/b\.ts:2:28  loading the definitions threw: Cannot read properties of undefined \(reading 'toUpperCase'\)/,
    );
  });

  it('an export that is a plain document instead of a builder', async () => {
    await expectCleanFailure(
      { 'bad/plain.ts': `export const deploy = { pipeline: { identifier: 'x' } };\n` },
      /^bad\/plain\.ts  export "deploy" is a plain pipeline document, not a builder[\s\S]*hint: build it with pipeline\(\.\.\.\), or wrap the object as raw\.pipeline\(deploy\)/,
    );
  });

  it('the same resource in two files', async () => {
    await expectCleanFailure(
      { 'bad/one.ts': GOOD, 'bad/two.ts': GOOD.replace('web =', 'other =') },
      /project "web" in org default is defined twice/,
    );
  });

  it('nesting deeper than any real pipeline', async () => {
    await expectCleanFailure(
      {
        'bad/deep.ts': `import { pipeline, raw, stage } from 'pipewright';
let element: Record<string, unknown> = { step: { type: 'Wait', name: 'w', identifier: 'w', spec: { duration: '1m' } } };
for (let i = 0; i < 300; i++) element = { stepGroup: { name: 'g', identifier: 'g' + i, steps: [element] } };
export const p = pipeline({ identifier: 'p', project: 'x' }).stage(stage({ identifier: 's', type: 'Custom' })).step(raw.step(element));
`,
      },
      /^bad\/deep\.ts:4:\d+  loading the definitions threw: a value nests more than 200 levels deep; flatten it/,
    );
  });

  it('a file that is not TypeScript at all', async () => {
    await expectCleanFailure({ 'bad/binary.ts': Buffer.from([0, 159, 146, 150, 0, 1, 2]) }, /^bad\/binary\.ts:1:1  /);
  });

  it('a file that does not exist', async () => {
    await write('good/web.ts', GOOD);
    const result = await runCli(['compile', 'missing.ts', '-o', 'out'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no files match "missing.ts"');
  });
});

describe('compile handles large input', () => {
  it('a 10 MB script compiles and comes back whole', async () => {
    await write(
      'big.ts',
      `import { pipeline, shell, stage } from 'pipewright';
export const big = pipeline({ identifier: 'big', project: 'x' })
  .stage(stage({ identifier: 's', type: 'Custom' }))
  .step(shell({ identifier: 'huge', script: 'echo 0123456789 #0063F7 <+pipeline.name>\\n'.repeat(250_000) }));
`,
    );
    const result = await runCli(['compile', 'big.ts', '-o', 'out'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const text = await readFile(join(dir, 'out/pipelines/default/x/big.yaml'), 'utf8');
    expect(text.length).toBeGreaterThan(10_000_000);
    const YAML = (await import('yaml')).default;
    const script = YAML.parse(text, { version: '1.1' }).pipeline.stages[0].stage.spec.execution.steps[0].step.spec
      .source.spec.script;
    expect(script).toBe('echo 0123456789 #0063F7 <+pipeline.name>\n'.repeat(250_000));
  });
});

describe('import survives hostile input', () => {
  const importCli = (...args: string[]) => runCli(['import', ...args, '-o', 'ts'], { cwd: dir });

  it('YAML nested deeper than any real pipeline', async () => {
    await write('deep.yaml', `pipeline: ${'['.repeat(300)}${']'.repeat(300)}\n`);
    const result = await importCli('deep.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^deep\.yaml:1:1  the document nests more than 200 levels deep/);
    expect(await readdir(dir)).toEqual(['deep.yaml']);
  });

  it('a file that is not YAML', async () => {
    await write('notes.yaml', 'Just some notes: {\n');
    const result = await importCli('notes.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^notes\.yaml:\d+:\d+  .*\[error yaml-syntax\]/);
  });

  it('a YAML scalar, not a document', async () => {
    await write('hello.yaml', 'hello\n');
    const result = await importCli('hello.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'hello.yaml:1:1  not a platform document: the root key must be project, connector, service, environment, infrastructureDefinition, template, pipeline, inputSet, overlayInputSet or trigger (found string)',
    );
  });
});
