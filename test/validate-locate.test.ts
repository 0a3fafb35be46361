import { describe, expect, it } from 'vitest';
import YAML, { LineCounter } from 'yaml';
import { codeFrame } from '../src/validate/code-frame.js';
import { locate } from '../src/yaml/yaml-locate.js';

const SOURCE = `pipeline:
  name: p
  stages:
    - stage: &base
        identifier: a
        spec: { execution: { steps: [] } }
    - stage:
        identifier: b
        "quoted key": 1
  tags: *base
`;

const parsed = (text: string) => {
  const lines = new LineCounter();
  const documents = YAML.parseAllDocuments(text, { version: '1.1', lineCounter: lines }) as YAML.Document[];
  return { documents, lines };
};

describe('locating a document path in YAML, start and end (just after the last character)', () => {
  const { documents, lines } = parsed(SOURCE);
  const at = (path: Array<string | number>, atKey = false) => locate(documents[0]!, path, lines, atKey);

  it('points at a scalar value', () => {
    expect(at(['pipeline', 'name'])).toEqual({ line: 2, column: 9, endLine: 2, endColumn: 10 });
    expect(at(['pipeline', 'stages', 1, 'stage', 'identifier'])).toEqual({
      line: 8,
      column: 21,
      endLine: 8,
      endColumn: 22,
    });
  });

  it('points at the key of a map or list, not at its first child', () => {
    expect(at(['pipeline', 'stages'])).toEqual({ line: 3, column: 3, endLine: 3, endColumn: 9 });
    expect(at(['pipeline', 'stages', 0, 'stage'])).toEqual({ line: 4, column: 7, endLine: 4, endColumn: 12 });
  });

  it('points at the key itself when asked (an unknown key), quoted keys included', () => {
    expect(at(['pipeline', 'stages', 1, 'stage', 'quoted key'], true)).toEqual({
      line: 9,
      column: 9,
      endLine: 9,
      endColumn: 21,
    });
    expect(at(['pipeline', 'name'], true)).toEqual({ line: 2, column: 3, endLine: 2, endColumn: 7 });
  });

  it('falls back to the nearest existing parent for something missing', () => {
    expect(at(['pipeline', 'stages', 1, 'stage', 'type'])).toEqual({ line: 7, column: 7, endLine: 7, endColumn: 12 });
    expect(at(['pipeline', 'stages', 7, 'stage'])).toEqual({ line: 3, column: 3, endLine: 3, endColumn: 9 });
  });

  it('follows flow collections and aliases', () => {
    expect(at(['pipeline', 'stages', 0, 'stage', 'spec', 'execution', 'steps'])).toEqual({
      line: 6,
      column: 30,
      endLine: 6,
      endColumn: 35,
    });
    expect(at(['pipeline', 'tags', 'identifier'])).toEqual({ line: 5, column: 21, endLine: 5, endColumn: 22 });
  });

  it('counts lines from the start of the file in a multi-document file', () => {
    const multi = parsed(`a: 1\n---\nproject:\n  name: x\n`);
    expect(locate(multi.documents[1]!, ['project', 'name'], multi.lines)).toEqual({
      line: 4,
      column: 9,
      endLine: 4,
      endColumn: 10,
    });
  });
});

describe('code frames', () => {
  it('shows the line with a caret under the column, and one line around', () => {
    expect(codeFrame('a: 1\nb: 2\nc: 3\n', 2, 4)).toBe(
      ['    1 | a: 1', '  > 2 | b: 2', '      |    ^', '    3 | c: 3'].join('\n'),
    );
  });

  it('stops at the first and last line, and can point past the final newline', () => {
    expect(codeFrame('a: 1\n', 1, 1)).toBe(['  > 1 | a: 1', '      | ^'].join('\n'));
    expect(codeFrame('a: "x\n', 2, 1)).toBe(['    1 | a: "x', '  > 2 |', '      | ^'].join('\n'));
  });
});

describe('locating any path of any document', () => {
  it('finds every leaf, start and end, on the line that holds it, for arbitrary documents written by the emitter', async () => {
    const fc = (await import('fast-check')).default;
    const { toYaml } = await import('../src/yaml/emit-yaml.js');
    const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/);
    const leaf = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9 ]{0,10}$/), fc.integer({ min: 0, max: 1000 }), fc.boolean());
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, tie('map'), tie('list')),
      map: fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 4 }),
      list: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, tree.node, { minKeys: 1, maxKeys: 4 }), (data) => {
        const text = toYaml(data);
        const { documents, lines } = parsed(text);
        const source = text.split('\n');
        const walk = (value: unknown, path: Array<string | number>): void => {
          if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index]));
          else if (value && typeof value === 'object')
            for (const [k, item] of Object.entries(value)) walk(item, [...path, k]);
          else {
            // The span covers the scalar as written, no more: its end is just after its last character.
            const { line, column, endLine, endColumn } = locate(documents[0]!, path, lines);
            expect(endLine).toBe(line);
            const shown = source[line - 1]!.slice(column - 1, endColumn! - 1);
            expect([String(value), JSON.stringify(value), `'${value}'`]).toContain(shown);
          }
        };
        walk(data, []);
      }),
      { numRuns: 150 },
    );
  });
});
