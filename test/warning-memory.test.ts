import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/core/diagnostics.js';
import { repeatedWarningsLine, WarningMemory } from '../src/cli/warning-memory.js';

const place = (at: string) => {
  const [file, line, column] = at.split(':');
  return { file: file!, line: Number(line), column: Number(column) };
};
const warning = (message: string, at = 'defs/a.ts:5:9'): Diagnostic => ({
  code: 'unknown-reference',
  severity: 'warning',
  message,
  path: ['pipeline'],
  location: place(at),
});
const error: Diagnostic = {
  code: 'invalid-format',
  severity: 'error',
  message: 'bad',
  path: [],
  location: place('defs/a.ts:1:1'),
};

describe('WarningMemory (compile --watch prints a warning once)', () => {
  it('prints a warning the first time, then only counts it while its cause stays (a moved line included)', () => {
    const memory = new WarningMemory();
    expect(memory.sift([warning('stage "x"')])).toEqual({ fresh: [warning('stage "x"')], repeated: [] });
    expect(memory.sift([warning('stage "x"', 'defs/a.ts:6:9')])).toEqual({
      fresh: [],
      repeated: [warning('stage "x"', 'defs/a.ts:6:9')],
    });
  });

  it('prints it again when its cause changes: another message or another file', () => {
    const memory = new WarningMemory();
    memory.sift([warning('stage "x"')]);
    expect(memory.sift([warning('stage "y"')]).fresh).toHaveLength(1);
    expect(memory.sift([warning('stage "y"', 'defs/b.ts:5:9')]).fresh).toHaveLength(1);
  });

  it('prints it again when it went away and came back', () => {
    const memory = new WarningMemory();
    memory.sift([warning('stage "x"')]);
    expect(memory.sift([])).toEqual({ fresh: [], repeated: [] });
    expect(memory.sift([warning('stage "x"')]).fresh).toHaveLength(1);
  });

  it('always prints errors', () => {
    const memory = new WarningMemory();
    memory.sift([error]);
    expect(memory.sift([error])).toEqual({ fresh: [error], repeated: [] });
  });

  it('stands for the warnings left out with one line naming their codes', () => {
    expect(repeatedWarningsLine([warning('a'), warning('b')])).toBe(
      '2 warnings shown before still apply, not repeated (unknown-reference); restart the watch to see them again\n',
    );
  });
});
