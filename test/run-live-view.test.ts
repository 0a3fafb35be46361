import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from './support/cli.js';
import { assertNoKey, emulatorsPerTest, runBinary } from './support/emulator-run.js';
import { plain, runEnv, seedPipelines, succeeding } from './support/run-fixtures.js';

/**
 * On a terminal, `pipewright run` redraws its stages and steps in place (cursor up, clear below) instead of a line
 * per change. util-linux's `script` gives the binary a pseudo-terminal, so the test sees what a person would.
 */
const setup = emulatorsPerTest('pipewright-run-live-');

function runOnTerminal(args: readonly string[], env: Record<string, string | undefined>) {
  const command = [process.execPath, BIN, 'run', ...args].map((part) => `'${part.replaceAll("'", `'\\''`)}'`).join(' ');
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, NO_COLOR: '1', CI: '', ...env }))
    if (value !== undefined) childEnv[name] = value;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      cwd: setup.work,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr: '' }));
  });
}

describe('pipewright run on a terminal', () => {
  it('draws a live view of stages and steps, redrawn in place, and ends with the outcome', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 60 } });
    seedPipelines(emulator, [succeeding()]);
    await setup.compiled([succeeding()]);
    const result = await runOnTerminal(
      ['deploy', '--set', 'variables.env=prod', '--set', 'variables.tag=v1'],
      runEnv(emulator),
    );
    assertNoKey(result);
    expect(result.code, result.stdout).toBe(0);
    // Redrawn in place: the cursor goes up over the last drawing and clears below it.
    expect(result.stdout).toMatch(/\x1b\[\d+F\x1b\[J/);
    // No line per change (that is the CI form), and the end says the outcome.
    expect(result.stdout).not.toMatch(/^step build\/compile Success/m);
    expect(result.stdout).toMatch(/execution \w+ of pipeline "deploy": Success/);
    for (const name of ['build', 'ship', 'compile', 'test', 'push']) expect(result.stdout).toContain(name);
  }, 120_000);

  it('without a terminal prints one line per change and no cursor movement (the negative)', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 20 } });
    seedPipelines(emulator, [plain('plain', 2)]);
    await setup.compiled([plain('plain', 2)]);
    const result = await runBinary(['run', 'plain'], { cwd: setup.work, env: runEnv(emulator) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(/\x1b\[/);
  }, 120_000);
});
