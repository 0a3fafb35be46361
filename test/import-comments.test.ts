import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Lexer } from 'yaml';
import { generateModule } from '../src/import/generate-module.js';
import { readDocuments } from '../src/import/read-documents.js';
import type { Demotions } from '../src/import/verify.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { ROOT, runCli, tempDir } from './support/cli.js';

/**
 * Every comment of the YAML (above the document, above a key, at the end of a line, between list items, a
 * commented-out step, after a collection) is kept in the TypeScript, above the call of the node it belongs to.
 */
const FIXTURES = ['comments-everywhere.yaml', 'comments-other-kinds.yaml'];

/** The comment texts of a YAML text, as its lexer finds them (never `#` inside a block scalar). */
const commentsOf = (text: string) =>
  [...new Lexer().lex(text)]
    .filter((token) => token.startsWith('#'))
    .map((token) => token.slice(1).trim())
    .filter(Boolean);

/** The documents of a YAML text as data, as the platform reads them (pipewright's one YAML reader). */
const dataOf = (text: string) => readYaml(text, 'comments').documents.map((document) => document.value);

/** A module written as \`ts/module.ts\` of a new folder and compiled there by the real binary: the YAML it writes. */
async function compiled(code: string): Promise<string> {
  const { dir, cleanup } = await tempDir();
  try {
    await mkdir(join(dir, 'ts'));
    await writeFile(join(dir, 'ts', 'module.ts'), code);
    const result = await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return await readFile(join(dir, 'out', 'pipelines', 'default', 'web', 'raw_commented.yaml'), 'utf8');
  } finally {
    await cleanup();
  }
}

const modulesOf = (text: string, file: string) =>
  readDocuments(text, file).documents.map((document) => generateModule(document).text);

describe('comments survive import', () => {
  it.each(FIXTURES)('%s: every comment is in the generated code', async (name) => {
    const text = await readFile(join(ROOT, 'test/fixtures/import', name), 'utf8');
    const code = modulesOf(text, name).join('\n');
    const comments = commentsOf(text);
    expect(comments.length).toBeGreaterThan(8);
    for (const comment of comments) expect(code, comment).toContain(comment);
  });

  it('puts each comment above the call of the node it belongs to', async () => {
    const text = await readFile(join(ROOT, 'test/fixtures/import/comments-everywhere.yaml'), 'utf8');
    const [code] = modulesOf(text, 'c.yaml');
    // End-of-line comments on a document's fields go above the export, named by their field.
    expect(code).toMatch(/\/\/ name: the display name\n(\/\/.*\n)*export const commentsEverywhere/);
    // Above a list item, and a commented-out step above the step after it.
    expect(code).toMatch(/\/\/ first, build\n\s*custom\(/);
    expect(code).toMatch(/\/\/ - step:\n(\s*\/\/.*\n)*\s*\/\/ type: inline script\n(\s*\/\/.*\n)*\s*shell\(/);
    expect(code).toMatch(/\/\/ then ship\n\s*custom\(/);
    expect(code).toMatch(/\/\/ duration: a minute\n\s*wait\(/);
    // What looks like a comment inside a block scalar is the script's text, not a comment.
    expect(code).not.toContain('// not a YAML comment');
  });

  it('writes each comment once', async () => {
    const text = await readFile(join(ROOT, 'test/fixtures/import/comments-everywhere.yaml'), 'utf8');
    const [code] = modulesOf(text, 'c.yaml');
    for (const comment of commentsOf(text)) expect(code!.split(comment).length - 1, comment).toBe(1);
  });
});

describe('comments of a node written as raw data stand at their fields', () => {
  const rawModule = (text: string) => {
    const [document] = readDocuments(text, 'comments-raw.yaml').documents;
    // The whole document demoted to its last fallback: raw.pipeline with the document as data.
    const demoted: Demotions = new WeakMap([[document!.document, { level: 99, why: 'the test demotes it' }]]);
    return generateModule(document!, demoted).text;
  };
  const fixture = () => readFile(join(ROOT, 'test/fixtures/import/comments-raw.yaml'), 'utf8');

  it('prints each comment above its field: the first and last key, a list item, three levels down, a trailing one', async () => {
    const code = rawModule(await fixture());
    expect(code).toContain('raw.pipeline(');
    expect(code).toMatch(/\/\/ first key\n\s*name: 'raw commented'/);
    expect(code).toMatch(/\/\/ the only stage\n\s*\{ stage:/);
    // A comment above the field and the one at the end of its line, both above the field.
    expect(code).toMatch(/\/\/ three levels down\n\s*\/\/ a minute\n\s*duration: '1m'/);
    expect(code).toMatch(/\/\/ last key\n\s*tier: 'gold'/);
    // None above the export but the one above the document.
    expect(code).toMatch(/\/\/ A pipeline written as raw.pipeline .*\nexport const rawCommented = raw.pipeline\(/);
  });

  it('writes each comment once', async () => {
    const text = await fixture();
    const code = rawModule(text);
    for (const comment of commentsOf(text)) expect(code.split(comment).length - 1, comment).toBe(1);
  });

  it('keeps a comment at a field inert: a line terminator or */ in it cannot end it', async () => {
    const text = (await fixture()).replace(
      '# last key',
      '# last key\u2028process.exit(7) */ globalThis.pwned = 1\u2029throw 1',
    );
    const code = rawModule(text);
    const lines = code.split(/\r\n|[\n\r\u2028\u2029]/);
    for (const needle of ['process.exit(7)', 'throw 1'])
      expect(lines.filter((line) => line.includes(needle)).every((line) => line.trimStart().startsWith('//'))).toBe(
        true,
      );
    expect(code).toMatch(
      /\/\/ last key\n\s*\/\/process\.exit\(7\) \*\/ globalThis\.pwned = 1\n\s*\/\/throw 1\n\s*tier: 'gold'/,
    );
  });

  it('compiles back to the same data (comments are not data), a comment holding U+2028 and */ included', async () => {
    const text = (await fixture()).replace('# a minute', '# a minute\u2028}); process.exit(7) */ ({');
    const code = rawModule(text);
    expect(code).toContain('raw.pipeline(');
    expect(dataOf(await compiled(code))).toEqual(dataOf(text));
  });
});

describe('comments of a .withFields({...}) object stand at their fields', () => {
  const name = 'comments-with-fields.yaml';
  const fixture = () => readFile(join(ROOT, 'test/fixtures/import', name), 'utf8');

  it("prints a field's comment above it, and an item's (above it, at the end of its line) above the item", async () => {
    const [code] = modulesOf(await fixture(), name);
    expect(code).toContain('.withFields({');
    expect(code).toMatch(/\.withFields\(\{\n\s*\/\/ the policies the step is checked against\n\s*enforce: /);
    expect(code).toMatch(/\/\/ the account's own\n\s*\/\/ checked first\n\s*'account\.baseline',/);
    expect(code).toMatch(/\/\/ checked last\n\s*'project_rules'/);
    // None of them above the export.
    const head = code!.slice(0, code!.indexOf('export const'));
    for (const comment of ['policies', 'account', 'checked']) expect(head).not.toContain(comment);
  });

  it('writes each comment once', async () => {
    const text = await fixture();
    const [code] = modulesOf(text, name);
    for (const comment of commentsOf(text)) expect(code!.split(comment).length - 1, comment).toBe(1);
  });
});

describe('comments of a node written once for two (a shared const)', () => {
  const name = 'comments-shared.yaml';
  const fixture = () => readFile(join(ROOT, 'test/fixtures/import', name), 'utf8');

  it('writes the comments of two nodes that are the same, comments and all, once: at the field of the one const', async () => {
    const [code] = modulesOf(await fixture(), name);
    expect(code).toMatch(/const \w+ = custom\(/);
    expect(code!.split('// duration: a minute').length - 1).toBe(1);
    expect(code!.split("the account's own").length - 1).toBe(1);
    expect(code).toMatch(/policySets: \[\n\s*\/\/ the account's own\n\s*'account\.baseline'/);
  });

  it('keeps every comment of a twin whose comments differ, above the call of the const', async () => {
    const text = (await fixture()).replace(/(# a minute[\s\S]*)# a minute/, '$1# sixty seconds');
    const [code] = modulesOf(text, name);
    expect(code).toMatch(/const \w+ = custom\(/);
    expect(code).toContain('// duration: a minute');
    expect(code).toContain('// duration: sixty seconds');
    // The twin's comment of a list item has no field of its own to stand at: it stays, above the call.
    expect(code!.split("the account's own").length - 1).toBe(2);
  });
});
