import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, tempDir, writeIn } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
let child: ChildProcess | undefined;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-watch-')));
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await cleanup();
});

const write = (file: string, text: string) => writeIn(dir, file, text);

/** The running watcher's output, and a way to wait for what it prints next (the test timeout bounds the wait). */
function startWatch(args: string[]) {
  const proc = spawn(process.execPath, [BIN, 'compile', '--watch', ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  const out = { stdout: '', stderr: '' };
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => ((out.stdout += chunk), wake()));
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => ((out.stderr += chunk), wake()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => (wake(), resolve(code))));
  let mark = { stdout: 0, stderr: 0 };
  return {
    exited,
    /** Starts a new section: `until` only looks at output printed after this. */
    mark: () => (mark = { stdout: out.stdout.length, stderr: out.stderr.length }),
    until: (done: (since: { stdout: string; stderr: string }) => boolean) =>
      new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        // Not a timing assertion: when the expected output never comes, fail with what was printed instead
        // of a bare test timeout.
        const guard = setTimeout(
          () => reject(new Error(`expected output did not come:\n${out.stdout}\n${out.stderr}`)),
          40_000,
        );
        const check = () => {
          const since = { stdout: out.stdout.slice(mark.stdout), stderr: out.stderr.slice(mark.stderr) };
          if (done(since)) {
            clearTimeout(guard);
            resolve(since);
          } else if (proc.exitCode !== null) {
            clearTimeout(guard);
            reject(new Error(`watch exited ${proc.exitCode}:\n${out.stdout}\n${out.stderr}`));
          } else waiters.push(check);
        };
        check();
      }),
  };
}

const STEPS = (script: string) => `import { shell } from 'pipewright';
export const hello = shell({ identifier: 'hello', script: '${script}', timeout: '5m' });
`;
const DEFS = `import { pipeline, project, stage } from 'pipewright';
import { hello } from '../lib/steps.js';
export const web = project({ identifier: 'web' });
export const build = pipeline({ identifier: 'build', project: web })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }))
  .step(hello);
`;
const output = () => readFile(join(dir, 'out/pipelines/default/web/build.yaml'), 'utf8');
const compiled = /compiled 2 documents to out: .*\nwatching 2 files for changes \(Ctrl-C to stop\)\n/;

describe('pipewright compile --watch', () => {
  it('recompiles when an imported file changes, reports errors and keeps watching, and exits 0 on Ctrl-C', async () => {
    await write('defs/build.ts', DEFS);
    await write('lib/steps.ts', STEPS('echo one'));
    const watch = startWatch(['defs/*.ts', '-o', 'out']);

    await watch.until(({ stdout }) => compiled.test(stdout));
    expect(await output()).toContain('script: echo one');

    // lib/steps.ts is not an entry: it is watched because defs/build.ts imports it.
    watch.mark();
    await write('lib/steps.ts', STEPS('echo two'));
    const second = await watch.until(({ stdout }) => compiled.test(stdout) && stdout.includes('2 written'));
    expect(second.stdout).toContain('change detected: lib/steps.ts; compiling\n');
    expect(await output()).toContain('script: echo two');

    // A syntax error is printed with its location; the process stays up and the last output stays.
    watch.mark();
    await write('lib/steps.ts', STEPS('echo three').replace("timeout: '5m' }", "timeout: '5m' ,, }"));
    const failed = await watch.until(({ stdout }) =>
      stdout.includes('compile failed; fix the error and save: watching'),
    );
    expect(failed.stderr).toMatch(/^lib\/steps\.ts:2:\d+ {2}Expected identifier but found ","/m);
    expect(failed.stderr).toContain('[error syntax-error]');
    expect(failed.stderr).not.toMatch(/\n\s+at /);
    expect(child!.exitCode).toBeNull();
    expect(await output()).toContain('script: echo two');

    // A validation error in an entry, located in the user's file.
    watch.mark();
    await write('lib/steps.ts', STEPS('echo three'));
    await watch.until(({ stdout }) => compiled.test(stdout));
    watch.mark();
    await write('defs/build.ts', DEFS.replace("identifier: 's'", "identifier: 'not valid'"));
    const invalid = await watch.until(({ stdout }) => stdout.includes('compile failed'));
    expect(invalid.stderr).toMatch(/^defs\/build\.ts:5:\d+ {2}.*"not valid"/m);
    expect(child!.exitCode).toBeNull();

    // Fixed: compiles again.
    watch.mark();
    await write('defs/build.ts', DEFS);
    await watch.until(({ stdout }) => compiled.test(stdout));
    expect(await output()).toContain('script: echo three');

    child!.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  });

  it('starts and keeps watching when the first compile fails', async () => {
    await write('defs/build.ts', DEFS.replace("from '../lib/steps.js'", "from '../lib/missing.js'"));
    await write('lib/steps.ts', STEPS('echo one'));
    const watch = startWatch(['defs/*.ts', '-o', 'out']);
    const first = await watch.until(({ stdout }) => stdout.includes('compile failed'));
    expect(first.stderr).toContain('[error unresolved-import]');
    watch.mark();
    await write('defs/build.ts', DEFS);
    await watch.until(({ stdout }) => compiled.test(stdout));
    expect(await output()).toContain('script: echo one');
    child!.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  });

  it('sees the fix of a broken imported file even when the first compile could not read the imports', async () => {
    await write('defs/build.ts', DEFS);
    await write('lib/steps.ts', STEPS('echo one').replace("timeout: '5m' }", "timeout: '5m' ,, }"));
    const watch = startWatch(['defs/*.ts', '-o', 'out']);
    const first = await watch.until(({ stdout }) => stdout.includes('compile failed'));
    expect(first.stderr).toMatch(/^lib\/steps\.ts:2:\d+ /m);
    watch.mark();
    await write('lib/steps.ts', STEPS('echo fixed'));
    await watch.until(({ stdout }) => compiled.test(stdout));
    expect(await output()).toContain('script: echo fixed');
    child!.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  });

  it('prints a warning once, until its cause changes', async () => {
    const warned = (script: string) => STEPS(`echo <+pipeline.stages.${script}.name>`);
    await write('defs/build.ts', DEFS);
    await write('lib/steps.ts', warned('nope'));
    const watch = startWatch(['defs/*.ts', '-o', 'out']);
    const first = await watch.until(({ stdout }) => compiled.test(stdout));
    expect(first.stderr).toContain(
      'refers to stage "nope", which is not a stage of this pipeline [warning unknown-reference]',
    );

    // A save that leaves the warning's cause as it was (a line above it moves it down): counted, not repeated.
    watch.mark();
    await write('lib/steps.ts', `// the shared step\n${warned('nope')}`);
    const again = await watch.until(({ stdout }) => compiled.test(stdout));
    expect(again.stdout).toContain('change detected: lib/steps.ts; compiling\n');
    expect(again.stderr).toBe(
      '1 warning shown before still applies, not repeated (unknown-reference); restart the watch to see it again\n',
    );

    // Its cause changed (another stage named): printed again.
    watch.mark();
    await write('lib/steps.ts', warned('gone'));
    const changed = await watch.until(({ stdout }) => compiled.test(stdout));
    expect(changed.stderr).toContain(
      'refers to stage "gone", which is not a stage of this pipeline [warning unknown-reference]',
    );
    expect(changed.stderr).not.toContain('shown before');
    child!.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  });

  it('is a usage error with --check or --json', async () => {
    const { runCli } = await import('./support/cli.js');
    for (const flag of ['--check', '--json']) {
      const result = await runCli(['compile', '--watch', flag], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`error: --watch cannot be combined with ${flag}\n`);
    }
  });
});
