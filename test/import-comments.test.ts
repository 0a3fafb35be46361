import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Lexer } from 'yaml';
import { generateModule } from '../src/import/generate-module.js';
import { readDocuments } from '../src/import/read-documents.js';
import { ROOT } from './support/cli.js';

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
