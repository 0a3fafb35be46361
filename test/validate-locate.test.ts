import { describe, expect, it } from 'vitest';
import YAML, { LineCounter } from 'yaml';
import { codeFrame } from '../src/validate/code-frame.js';
import { locate } from '../src/validate/yaml-locate.js';

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

describe('locating a document path in YAML', () => {
  const { documents, lines } = parsed(SOURCE);
  const at = (path: Array<string | number>, atKey = false) => locate(documents[0]!, path, lines, atKey);

  it('points at a scalar value', () => {
    expect(at(['pipeline', 'name'])).toEqual({ line: 2, column: 9 });
    expect(at(['pipeline', 'stages', 1, 'stage', 'identifier'])).toEqual({ line: 8, column: 21 });
  });

  it('points at the key of a map or list, not at its first child', () => {
    expect(at(['pipeline', 'stages'])).toEqual({ line: 3, column: 3 });
    expect(at(['pipeline', 'stages', 0, 'stage'])).toEqual({ line: 4, column: 7 });
  });

  it('points at the key itself when asked (an unknown key), quoted keys included', () => {
    expect(at(['pipeline', 'stages', 1, 'stage', 'quoted key'], true)).toEqual({ line: 9, column: 9 });
    expect(at(['pipeline', 'name'], true)).toEqual({ line: 2, column: 3 });
  });

  it('falls back to the nearest existing parent for something missing', () => {
    expect(at(['pipeline', 'stages', 1, 'stage', 'type'])).toEqual({ line: 7, column: 7 });
    expect(at(['pipeline', 'stages', 7, 'stage'])).toEqual({ line: 3, column: 3 });
  });

  it('follows flow collections and aliases', () => {
    expect(at(['pipeline', 'stages', 0, 'stage', 'spec', 'execution', 'steps'])).toEqual({ line: 6, column: 30 });
    expect(at(['pipeline', 'tags', 'identifier'])).toEqual({ line: 5, column: 21 });
  });

  it('counts lines from the start of the file in a multi-document file', () => {
    const multi = parsed(`a: 1\n---\nproject:\n  name: x\n`);
    expect(locate(multi.documents[1]!, ['project', 'name'], multi.lines)).toEqual({ line: 4, column: 9 });
  });
});

describe('code frames', () => {
  it('shows the line with a caret under the column, and one line around', () => {
    expect(codeFrame('a: 1\nb: 2\nc: 3\n', 2, 4)).toBe(['    1 | a: 1', '  > 2 | b: 2', '      |    ^', '    3 | c: 3'].join('\n'));
  });

  it('stops at the first and last line, and can point past the final newline', () => {
    expect(codeFrame('a: 1\n', 1, 1)).toBe(['  > 1 | a: 1', '      | ^'].join('\n'));
    expect(codeFrame('a: "x\n', 2, 1)).toBe(['    1 | a: "x', '  > 2 |', '      | ^'].join('\n'));
  });
});
