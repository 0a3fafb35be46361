import { describe, expect, it } from 'vitest';
import { assertNoKey, emulatorsPerTest, runBinary } from './support/emulator-run.js';
import { awaitingApproval, runEnv, seedPipelines, spawnRun } from './support/run-fixtures.js';

const setup = emulatorsPerTest('pipewright-run-signals-');

describe('pipewright run: waits for a person, Ctrl-C and --timeout', () => {
  it('reports an approval wait with where to act, and SIGINT aborts the execution (the interrupt AbortAll) and exits 1', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 20 } });
    seedPipelines(emulator, [awaitingApproval()]);
    const run = spawnRun(['default/shop/deploy'], runEnv(emulator), setup.work);
    await run.when('waiting for an approval');
    const [id] = [...emulator.executions.runs.keys()];
    expect(run.output().stdout).toContain(
      `waiting for an approval (stage gate, step approve): act at ${emulator.url}/ng/account/`,
    );
    run.child.kill('SIGINT');
    const code = await run.exited;
    const { stdout, stderr } = run.output();
    assertNoKey({ code, stdout, stderr });
    expect(code).toBe(1);
    expect(emulator.executions.interrupts.map(({ id: at, type }) => `${at} ${type}`)).toEqual([`${id} AbortAll`]);
    expect(emulator.executions.statusOf(id!)).toBe('Aborted');
    expect(stderr).toContain('SIGINT: aborting the execution');
    expect(stderr).toMatch(/: Aborted at stage gate, step approve \(Aborted\)\n$/);
    expect(stderr).not.toMatch(/unexpected error|\n\s+at /);
  });

  it('a second SIGINT stops at once when the abort gets no answer', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 20 } });
    seedPipelines(emulator, [awaitingApproval()]);
    // The interrupt hangs: only the second Ctrl-C ends the run.
    emulator.setFaults({
      rate: 1,
      kinds: ['hang'],
      match: ({ method, path }) => method === 'PUT' && path.includes('/interrupt/'),
    });
    const run = spawnRun(['default/shop/deploy'], runEnv(emulator), setup.work);
    await run.when('waiting for an approval');
    run.child.kill('SIGINT');
    await run.when('SIGINT: aborting the execution');
    await new Promise((resolve) => setTimeout(resolve, 200));
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toMatch(
      /SIGINT again: stopped without waiting; check the execution at http:\/\/127\.0\.0\.1:\d+\/ng\/account\//,
    );
    expect(emulator.faultsInjected.get('hang')).toBe(1);
  });

  it('SIGTERM with --detach leaves the execution running: no interrupt is sent', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 20 } });
    seedPipelines(emulator, [awaitingApproval()]);
    const run = spawnRun(['default/shop/deploy', '--detach'], runEnv(emulator), setup.work);
    await run.when('waiting for an approval');
    run.child.kill('SIGTERM');
    const code = await run.exited;
    expect(code).toBe(1);
    const [id] = [...emulator.executions.runs.keys()];
    expect(emulator.executions.interrupts).toEqual([]);
    expect(emulator.executions.statusOf(id!)).toBe('ApprovalWaiting');
    expect(run.output().stderr).toContain('SIGTERM: leaving the execution running (--detach)');
    expect(run.output().stderr).toContain(`execution ${id} of pipeline "deploy" left running (--detach)`);
  });

  it('--timeout ends the wait for an approval: the execution is aborted, and the run exits 1 naming where it waited', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 20 } });
    seedPipelines(emulator, [awaitingApproval()]);
    const result = await runBinary(['run', 'default/shop/deploy', '--timeout', '1s'], {
      cwd: setup.work,
      env: runEnv(emulator),
    });
    assertNoKey(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('waiting for an approval (stage gate, step approve): act at ');
    expect(result.stderr).toMatch(
      /: timed out \(--timeout\), so pipewright aborted it at stage gate, step approve \((ApprovalWaiting|Aborted)\)\n$/,
    );
    const [id] = [...emulator.executions.runs.keys()];
    expect(emulator.executions.interrupts.map((i) => i.id)).toEqual([id]);
  });

  it('--timeout with --detach leaves the execution waiting', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 20 } });
    seedPipelines(emulator, [awaitingApproval()]);
    const result = await runBinary(['run', 'default/shop/deploy', '--timeout', '1s', '--detach'], {
      cwd: setup.work,
      env: runEnv(emulator),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('timed out (--timeout), left running (--detach)');
    expect(emulator.executions.interrupts).toEqual([]);
  });

  it('refuses a --timeout that is not a duration as a usage error (exit 2)', async () => {
    const emulator = await setup.emulate();
    const result = await runBinary(['run', 'default/shop/deploy', '--timeout', 'soon'], {
      cwd: setup.work,
      env: runEnv(emulator),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give a duration such as 90s, 30m or 1h30m');
    expect(emulator.requests).toEqual([]);
  });
});
