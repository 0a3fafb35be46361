import { spawn, spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir, writeIn } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-diagnostics-')));
afterEach(async () => cleanup());

const write = (file: string, text: string) => writeIn(dir, file, text);

const BROKEN = `import { deployment, input, pipeline, project, shell } from 'pipewright';
export const web = project({ identifier: 'web' });
export const build = pipeline({ identifier: 'build', project: web })
  .stage(deployment({ identifier: 's', service: input(), environment: input(), infrastructure: { connector: input(), namespace: 'web' } }))
  .step(shell({ identifier: 'one', script: 'echo', timeout: '10x' }))
  .step(shell({ identifier: 'one', script: 'echo', timeout: '5m' }));
`;

const ESC = '\u001b[';
const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs the binary with a terminal on stdout and stderr (util-linux `script` allocates the pseudo-terminal). */
function runOnTerminal(args: string[], env: Record<string, string | undefined>): Promise<string> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve, reject) => {
    const fullEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) fullEnv[k] = v;
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: dir,
      env: fullEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (text += c));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
}

describe('diagnostics output', () => {
  it('--json lists every error with code, severity, message, document path, location, subject and hint', async () => {
    await write('defs/web.ts', BROKEN);
    const result = await runCli(['compile', 'defs/web.ts', '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    expect(report.diagnostics.map((d: { code: string }) => d.code).sort()).toEqual([
      'duplicate-identifier',
      'invalid-format',
    ]);
    for (const d of report.diagnostics) {
      expect(d).toMatchObject({
        severity: 'error',
        message: expect.any(String),
        subject: expect.stringContaining('pipeline "build"'),
      });
      expect(d).toMatchObject({
        location: { file: 'defs/web.ts', line: expect.any(Number), column: expect.any(Number) },
      });
      expect(Array.isArray(d.path) && d.path[0] === 'pipeline').toBe(true);
    }
    const duplicate = report.diagnostics.find((d: { code: string }) => d.code === 'duplicate-identifier');
    expect(duplicate.hint).toContain('rename one');
    // Sorted by location, like the terminal form.
    const lines = report.diagnostics.map((d: { location: { line: number } }) => d.location.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it('puts a duplicate identifier of a shared step at the .step() that uses it again, naming where it is defined', async () => {
    await write(
      'lib/steps.ts',
      `import { shell } from 'pipewright';\nexport const check = shell({ identifier: 'check', script: 'make check' });\n`,
    );
    await write(
      'defs/p.ts',
      [
        `import { custom, pipeline } from 'pipewright';`,
        `import { check } from '../lib/steps.js';`,
        `export const p = pipeline({ identifier: 'p', project: 'demo' })`,
        `  .stage(custom({ identifier: 'one' }).step(check))`,
        `  .step(check);`,
        '',
      ].join('\n'),
    );
    const result = await runCli(['compile', 'defs/p.ts', '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    const [duplicate] = JSON.parse(result.stdout).diagnostics;
    expect(duplicate).toMatchObject({
      code: 'duplicate-identifier',
      location: { file: 'defs/p.ts', line: 5, column: 4 },
      message: 'step identifier "check" is used twice in execution.steps: steps[0] and steps[1]',
    });
    expect(duplicate.hint).toContain('the step is defined at lib/steps.ts:2:22');
  });

  it('reports warnings without failing: on stderr in text, in diagnostics with --json', async () => {
    const token = ['ghp', 'abcdefghijklmnopqrstuvwxyz0123456789'].join('_');
    await write(
      'defs/web.ts',
      `import { custom, pipeline, project, shell } from 'pipewright';\nexport const web = project({ identifier: 'web' });\n` +
        `export const build = pipeline({ identifier: 'build', project: web })\n  .stage(custom({ identifier: 's' }))\n` +
        `  .step(shell({ identifier: 'one', script: 'curl -H "token: ${token}"', timeout: '5m' }));\n`,
    );
    const text = await runCli(['compile', 'defs/web.ts'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('compiled 2 documents to out: 3 written, 0 unchanged, 0 removed\n');
    expect(text.stderr).toMatch(/^defs\/web\.ts:5:\d+ {2}.*\[warning possible-secret\]\n {4}hint: /);
    expect(text.stderr).toContain('\n1 warning\n');
    expect(text.stderr).not.toContain(token);

    const json = await runCli(['compile', 'defs/web.ts', '-o', 'out2', '--json'], { cwd: dir });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(true);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        code: 'possible-secret',
        severity: 'warning',
        location: expect.objectContaining({ file: 'defs/web.ts', line: 5 }),
        hint: expect.any(String),
      }),
    ]);
    expect(report.diagnostics[0].path.at(-1)).toBe('script');
    expect(json.stdout).not.toContain(token);
  });

  it('--json also carries failures before validation: nothing matched, an unresolved import', async () => {
    const none = await runCli(['compile', 'nothing/*.ts', '--json'], { cwd: dir });
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout)).toEqual({
      pipewright: 1,
      command: 'compile',
      ok: false,
      diagnostics: [
        expect.objectContaining({
          code: 'no-entries',
          severity: 'error',
          hint: expect.stringContaining('pass .ts files'),
        }),
      ],
    });
    const noConfig = await runCli(['compile', '--json'], { cwd: dir });
    expect(noConfig.code).toBe(1);
    expect(JSON.parse(noConfig.stdout).diagnostics[0]).toMatchObject({
      code: 'no-entries',
      message: 'no entries given and no pipewright.config.ts found',
    });
    await write('defs/web.ts', `import { x } from './missing.js';\nexport const y = x;\n`);
    const unresolved = await runCli(['compile', 'defs/web.ts', '--json'], { cwd: dir });
    // esbuild's range: the import's path, quotes included.
    expect(JSON.parse(unresolved.stdout).diagnostics[0]).toMatchObject({
      code: 'unresolved-import',
      location: { file: 'defs/web.ts', line: 1, column: 19, endLine: 1, endColumn: 33 },
    });
  });

  it('uses no colour when the output is not a terminal, even without NO_COLOR', async () => {
    await write('defs/web.ts', BROKEN);
    const result = await runCli(['compile', 'defs/web.ts'], {
      cwd: dir,
      env: { NO_COLOR: undefined, FORCE_COLOR: undefined },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[error invalid-format]');
    expect(result.stderr).not.toContain(ESC);
  });

  it.skipIf(!hasScript)('colours on a terminal, and not when NO_COLOR is set', async () => {
    await write('defs/web.ts', BROKEN);
    const coloured = await runOnTerminal(['compile', 'defs/web.ts'], { NO_COLOR: undefined, TERM: 'xterm' });
    expect(coloured).toContain('invalid-format');
    expect(coloured).toContain(`${ESC}31merror`);
    const plain = await runOnTerminal(['compile', 'defs/web.ts'], { NO_COLOR: '1', TERM: 'xterm' });
    expect(plain).toContain('invalid-format');
    expect(plain).not.toContain(ESC);
  });

  it('prints a stack trace only with --debug', async () => {
    await write('taken', '');
    const quiet = await runCli(['init', 'taken'], { cwd: dir });
    expect(quiet).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(
        /^pipewright: taken exists and is not a folder \[error not-a-folder\]\n {4}hint: .*\n\n1 error\n$/,
      ),
    });
    const debug = await runCli(['--debug', 'init', 'taken'], { cwd: dir });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/^DiagnosticError: taken exists and is not a folder\n\s+at /m);

    await write('defs/web.ts', `export const x = (() => { throw new Error('boom'); })();\n`);
    const threw = await runCli(['compile', 'defs/web.ts'], { cwd: dir });
    expect(threw.code).toBe(1);
    expect(threw.stderr).toMatch(/^defs\/web\.ts:1:\d+ {2}loading the definitions threw: boom/);
    expect(threw.stderr).not.toMatch(/\n\s+at /);
  });
});
