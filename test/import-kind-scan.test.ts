import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindsIn } from '../src/import/kind-scan.js';
import { readDocuments } from '../src/import/read-documents.js';
import { ROOT } from './support/cli.js';

/** Every YAML file under a folder. */
async function yamlFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile() && /\.ya?ml$/.test(entry.name)) found.push(join(entry.parentPath, entry.name));
  return found.sort();
}

describe('the kinds a YAML text may hold, without parsing it', () => {
  it('finds root keys at the start of lines, across documents, comments, directives, CRLF and a BOM', () => {
    const text =
      '\uFEFF%YAML 1.2\n---\n# a pipeline\npipeline:\n  identifier: a\n  inputSet: not a root\r\n...\n---   # next\ninputSet:\n  identifier: b\n';
    expect([...kindsIn(text)!].sort()).toEqual(['inputSet', 'pipeline']);
    expect([...kindsIn('version: 1\nsecret:\n  identifier: s\n')!]).toEqual([]);
  });

  it.each([
    ['an indented root', '  pipeline:\n    identifier: a\n'],
    ['a flow map root', '{pipeline: {identifier: a}}\n'],
    ['a quoted root key', '"pipeline":\n  identifier: a\n'],
    ['an anchored root', '&root pipeline:\n  identifier: a\n'],
    ['a tagged root', '!!map\npipeline:\n  identifier: a\n'],
    ['a complex key', '? pipeline\n: identifier: a\n'],
    ['a merge key', '<<: *base\n'],
    ['content after ---', '--- {project: {identifier: p}}\n'],
    ['an indented root after ...', 'pipeline:\n  identifier: a\n...\n  project:\n    identifier: p\n'],
  ])('cannot tell (any kind) for %s', (_, text) => {
    expect(kindsIn(text)).toBeUndefined();
  });

  it('never leaves out a kind a file holds: every YAML file of the tests and examples', async () => {
    const files = [...(await yamlFiles(join(ROOT, 'test'))), ...(await yamlFiles(join(ROOT, 'examples')))];
    expect(files.length).toBeGreaterThan(50);
    let told = 0;
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const kinds = kindsIn(text);
      if (!kinds) continue;
      told++;
      for (const { kind } of readDocuments(text, file).documents)
        expect({ file, kind, found: kinds.has(kind) }).toEqual({ file, kind, found: true });
    }
    // Most files are told apart by the scan (the others are read before any later kind is generated).
    expect(told / files.length).toBeGreaterThan(0.9);
  });
});
