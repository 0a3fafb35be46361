import { afterEach, describe, expect, it } from 'vitest';
import type { CliResult } from './support/cli.js';
import type { Emulator } from './support/emulator.js';
import { assertNoKey, emulatorsPerTest, runBinary } from './support/emulator-run.js';
import { HostileServer, type Plan } from './support/hostile-server.js';
import { plain, runEnv, seedPipelines } from './support/run-fixtures.js';

/**
 * `pipewright run` against a hostile platform in front of the emulator: an execution read that answers an endless
 * body or a wrong shape ends the run with a clear error naming the request (exit 1, no stack), never a hang, a
 * crash or an "unexpected error"; the execution id was printed before, so the user can find it.
 */

const setup = emulatorsPerTest('pipewright-run-hostile-');
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function through(emulator: Emulator, plan: Plan, args: readonly string[]): Promise<CliResult> {
  const proxy = await new HostileServer(emulator.url, plan).start();
  servers.push(proxy);
  const result = await runBinary(['run', ...args], {
    cwd: setup.work,
    env: { ...runEnv(emulator), HARNESS_BASE_URL: proxy.url, NODE_OPTIONS: '--max-old-space-size=96' },
  });
  assertNoKey(result);
  return result;
}

const isRead = (path: string) => path.includes('/pipeline/api/pipelines/execution/v2/');

const expectCleanFailure = (result: CliResult, message: string) => {
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(message);
  expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
};

describe('pipewright run: a hostile answer is a clear error', () => {
  it('an endless body for the execution read stops at the body limit', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 50 } });
    seedPipelines(emulator, [plain('smoke', 2)]);
    const result = await through(emulator, ({ path }) => (isRead(path) ? { kind: 'endless-body' } : undefined), [
      'default/shop/smoke',
    ]);
    expect(result.stdout).toMatch(/started execution \w+/);
    expectCleanFailure(result, 'is larger than 32 MiB');
    expect(result.stderr).toMatch(/following execution \w+ of pipeline "smoke"/);
  });

  it('an execution read of the wrong shape is malformed, not a success nor an empty run', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 50 } });
    seedPipelines(emulator, [plain('smoke', 2)]);
    const result = await through(
      emulator,
      ({ path }) =>
        isRead(path)
          ? { kind: 'rewrite', rewrite: (answer) => ({ ...answer, data: { pipelineExecutionSummary: 'Success' } }) }
          : undefined,
      ['default/shop/smoke'],
    );
    expectCleanFailure(result, 'is malformed: data.pipelineExecutionSummary is a string');
  });

  it('an execute answer without the execution id is malformed, and says nothing started is known', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 50 } });
    seedPipelines(emulator, [plain('smoke', 2)]);
    const result = await through(
      emulator,
      ({ path }) =>
        path.includes('/pipeline/api/pipeline/execute/')
          ? { kind: 'rewrite', rewrite: (answer) => ({ ...answer, data: { planExecution: { status: 'RUNNING' } } }) }
          : undefined,
      ['default/shop/smoke'],
    );
    expectCleanFailure(
      result,
      'starting pipeline "smoke": the platform\'s answer to POST /gateway/pipeline/api/pipeline/execute/smoke is malformed: data.planExecution has no uuid',
    );
  });
});
