import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-typecheck-')));
afterEach(async () => cleanup());

const write = (file: string, text: string) => writeIn(dir, file, text);
const compile = (...args: string[]) => runCli(['compile', 'defs/*.ts', '-o', 'out', ...args], { cwd: dir });

// Runs fine (nothing reads the value) but is a type error: only --typecheck can catch it. (A misspelt builder
// option is no example any more: builders refuse unknown options at run time too.)
const EXTRA_OPTION = `import { project } from 'pipewright';
export const web = project({ identifier: 'web' });

  const count: number = 'two';
`;

describe('pipewright compile --typecheck', () => {
  it('reports type errors located in the user file, exits 1 and writes nothing', async () => {
    await write('defs/web.ts', EXTRA_OPTION);
    expect((await compile()).code).toBe(0); // without the checker it compiles
    const result = await runCli(['compile', 'defs/*.ts', '-o', 'checked', '--typecheck'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^defs\/web\.ts:4:9 {2}TS2322: Type 'string' is not assignable to type 'number'/);
    expect(result.stderr).toContain("\n      const count: number = 'two';\n            ^ [error type-error]\n");
    expect(result.stderr).toContain('hint: fix the types at this location');
    expect(result.stderr).toContain('\n1 error\n');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'checked'))).toBe(false);
  });

  it('checks the files the entries import, and passes clean code', async () => {
    await write(
      'lib/steps.ts',
      `import { shell } from 'pipewright';\nexport const hello = shell({ identifier: 'hello', script: 'echo', timeout: 5 });\n`,
    );
    await write(
      'defs/web.ts',
      `import { pipeline, project, stage } from 'pipewright';\nimport { hello } from '../lib/steps.js';\n` +
        `export const web = project({ identifier: 'web' });\n` +
        `export const build = pipeline({ identifier: 'build', project: web }).stage(stage({ identifier: 's', type: 'Custom', spec: {} })).step(hello);\n`,
    );
    const bad = await compile('--typecheck');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^lib\/steps\.ts:2:\d+ {2}TS2322: Type 'number' is not assignable to type/m);

    await write(
      'lib/steps.ts',
      `import { shell } from 'pipewright';\nexport const hello = shell({ identifier: 'hello', script: 'echo', timeout: '5m' });\n`,
    );
    const good = await compile('--typecheck');
    expect(good).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'compiled 2 documents to out: 3 written, 0 unchanged, 0 removed\n',
    });
  });

  it('uses the nearest tsconfig.json', async () => {
    await write(
      'defs/web.ts',
      `import { project } from 'pipewright';\nconst named = (id) => project({ identifier: id });\nexport const web = named('web');\n`,
    );
    const strict = await compile('--typecheck');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^defs\/web\.ts:2:\d+ {2}TS7006: Parameter 'id' implicitly has an 'any' type\./);
    await write(
      'tsconfig.json',
      JSON.stringify({ compilerOptions: { strict: false, module: 'NodeNext', moduleResolution: 'NodeNext' } }),
    );
    expect((await compile('--typecheck')).code).toBe(0);
  });

  it('checks ES modules as ES modules (package.json "type": "module"), so import.meta is fine', async () => {
    await write('package.json', '{ "type": "module" }\n');
    await write(
      'defs/web.ts',
      `import { project } from 'pipewright';\nexport const here: string = import.meta.url;\nexport const web = project({ identifier: 'web' });\n`,
    );
    const result = await compile('--typecheck');
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('reports a broken tsconfig.json as a located error', async () => {
    await write(
      'defs/web.ts',
      `import { project } from 'pipewright';\nexport const web = project({ identifier: 'web' });\n`,
    );
    await write('tsconfig.json', '{ "compilerOptions": { "target": "ES1999" } }\n');
    const result = await compile('--typecheck');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tsconfig\.json:1:\d+ {2}TS6046: Argument for '--target' option must be/m);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('gives type errors as JSON diagnostics with --json', async () => {
    await write('defs/web.ts', EXTRA_OPTION);
    const result = await compile('--typecheck', '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    expect(report.diagnostics).toEqual([
      {
        code: 'type-error',
        severity: 'error',
        message: expect.stringMatching(/^TS2322: /),
        location: { file: 'defs/web.ts', line: 4, column: 9, endLine: 4, endColumn: expect.any(Number) },
        file: 'defs/web.ts',
        line: 4,
        column: 9,
        hint: expect.stringContaining('fix the types'),
      },
    ]);
  });
});
