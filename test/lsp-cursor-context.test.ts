import { describe, expect, it } from 'vitest';
import { cursorContext } from '../src/lsp/cursor-context.js';

/** The context at the `¦` of a text. */
const at = (text: string) => {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('¦'));
  const character = lines[line]!.indexOf('¦');
  lines[line] = lines[line]!.replace('¦', '');
  return cursorContext(lines, line, character);
};

describe('the map path at the cursor, read from the lines', () => {
  it('a key being written under nested maps and list items, counting the items before it', () => {
    const text = `pipeline:\n  stages:\n    - stage:\n        identifier: a\n    - stage:\n        spec:\n          execution:\n            steps:\n              - step:\n                  identifier: x\n              - step:\n                  ti¦\n`;
    expect(at(text)).toEqual({
      map: ['pipeline', 'stages', 1, 'stage', 'spec', 'execution', 'steps', 1, 'step'],
      at: { kind: 'key' },
      prefix: 'ti',
      start: 18,
    });
  });

  it('a value after its key', () => {
    expect(at(`pipeline:\n  stages:\n    - stage:\n        type: Cu¦\n`)).toEqual({
      map: ['pipeline', 'stages', 0, 'stage'],
      at: { kind: 'value', key: 'type' },
      prefix: 'Cu',
      start: 14,
    });
  });

  it('a list not indented under its key', () => {
    expect(at(`pipeline:\n  stages:\n  - stage:\n      identifier: a\n  - stage:\n      na¦\n`)).toMatchObject({
      map: ['pipeline', 'stages', 1, 'stage'],
    });
  });

  it('a new list item on the cursor line, skipping comments, blank lines and block scalars', () => {
    const text = `pipeline:\n  variables:\n    - name: a\n      value: |\n        x: 1\n\n    # a note\n    - ¦\n`;
    expect(at(text)).toEqual({ map: ['pipeline', 'variables', 1], at: { kind: 'key' }, prefix: '', start: 6 });
  });

  it('nothing in a flow collection or after a comment', () => {
    expect(at(`pipeline:\n  tags: {a¦\n`)).toBeUndefined();
    expect(at(`pipeline:\n  # a comment¦\n`)).toBeUndefined();
  });
});
