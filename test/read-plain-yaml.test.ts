import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { toYaml } from '../src/yaml/emit-yaml.js';
import { readPlainYaml } from '../src/yaml/read-plain-yaml.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { locate } from '../src/yaml/yaml-locate.js';
import { ROOT } from './support/cli.js';

/**
 * The fast reader validate tries first must never read a text differently from the platform's reader: where it
 * gives a tree, readYaml gives the same one, with nothing to report; everything else it leaves to readYaml.
 */
function expectSameAsReadYaml(text: string): boolean {
  const fast = readPlainYaml(text);
  if (!fast) return false;
  const full = readYaml(text, 'x.yaml');
  expect(full.diagnostics).toEqual([]);
  expect(full.documents).toHaveLength(1);
  expect(fast.value).toEqual(full.documents[0]!.value);
  const root = Object.keys(fast.value as object)[0]!;
  const where = fast.positions.get([root, 'identifier']);
  if (where) expect(where).toEqual(locate(full.documents[0]!.node, [root, 'identifier'], full.lines));
  return true;
}

const corpus = join(ROOT, '../shared/corpus');
const files = [
  ...(await glob('test/fixtures/**/*.{yaml,yml}', { cwd: ROOT, absolute: true })),
  ...(await glob('**/*.{yaml,yml}', { cwd: corpus, absolute: true })),
].sort();

describe('the fast YAML reader', () => {
  it('reads every fixture (and real-world document, when ../shared/corpus is present) as readYaml does, or leaves it', () => {
    let taken = 0;
    for (const file of files) if (expectSameAsReadYaml(readFileSync(file, 'utf8'))) taken++;
    // It is worth having only if it takes most plain files.
    expect(taken).toBeGreaterThan(files.length / 2);
  });

  it.each([
    ['a literal block, clipped', 'pipeline:\n  script: |\n    a\n\n    b\n\n  next: 1\n'],
    ['a literal block, stripped', 'pipeline:\n  script: |-\n    a\n    b\n\n'],
    ['a literal block, kept', 'pipeline:\n  script: |+\n    a\n\n  x: y\n'],
    ['a literal block at the end of a file without a line break', 'pipeline:\n  script: |\n    echo'],
    ["a list at its key's indentation", 'pipeline:\n  tags:\n  - a\n  - b: c\n    d: e\n'],
    [
      'quoted scalars and comments',
      "pipeline: # c\n  a: 'it''s' # c\n  b: \"x: #y\"\n  c: plain # c\n  d: []\n  e: {}\n",
    ],
    [
      'platform scalar typing',
      'pipeline:\n  a: yes\n  b: 0123\n  c: 1:20\n  d: .\n  e: ~\n  f: 1e3\n  g: 2024-01-01\n',
    ],
  ])('reads %s as readYaml does', (_name, text) => {
    expect(expectSameAsReadYaml(text)).toBe(true);
  });

  it.each([
    ['an anchor and alias', 'pipeline:\n  a: &x 1\n  b: *x\n'],
    ['a merge key', 'pipeline:\n  <<: {a: 1}\n'],
    ['a flow collection', 'pipeline:\n  a: [1, 2]\n'],
    ['a folded block', 'pipeline:\n  a: >\n    x\n'],
    ['a tag', 'pipeline:\n  a: !!str 1\n'],
    ['a duplicate key', 'pipeline:\n  a: 1\n  a: 2\n'],
    ['a second document', 'pipeline:\n  a: 1\n---\npipeline:\n  a: 2\n'],
    ['a tab', 'pipeline:\n\ta: 1\n'],
    ['CRLF line ends', 'pipeline:\r\n  a: 1\r\n'],
    ['an escape in double quotes', 'pipeline:\n  a: "x\\ty"\n'],
    ['a multi-line plain scalar', 'pipeline:\n  a: one\n    two\n'],
    ['a value holding ": "', 'pipeline:\n  a: b: c\n'],
    ['a malformed number', 'pipeline:\n  a: .inf\n'],
    ['a list at the root', '- a\n'],
    ['no document at all', '# only a comment\n'],
  ])('leaves %s to readYaml', (_name, text) => {
    expect(readPlainYaml(text)).toBeUndefined();
  });

  it('reads what compile writes, whatever the strings, as readYaml does', () => {
    const text = fc.oneof(
      fc.constantFrom(
        'yes',
        'no',
        'null',
        '~',
        '',
        ' ',
        '0123',
        '12:30',
        '.inf',
        '#x',
        'a #b',
        'a: b',
        '- x',
        "it's",
        '"q"',
        '|',
        '>',
        'l1\nl2',
        'l1\nl2\n',
        '\n\nlead',
        ' lead',
        'trail ',
        '---',
        '...',
      ),
      fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }), text, { maxKeys: 5 }),
        text,
        (extra, script) => {
          expectSameAsReadYaml(
            toYaml({
              pipeline: { identifier: 'p', ...extra, stages: [{ stage: { spec: { script, list: [script, extra] } } }] },
            }),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
