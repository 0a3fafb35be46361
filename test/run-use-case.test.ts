import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runPipeline, type RunEvent } from '../src/index.js';
import { DiagnosticError } from '../src/core/diagnostics.js';
import { ACCOUNT_ID, ADMIN_KEY } from './support/emulator.js';
import { emulatorsPerTest, FAST_RETRIES } from './support/emulator-run.js';
import { awaitingApproval, failing, seedPipelines } from './support/run-fixtures.js';

/** `runPipeline`, the use case `pipewright run` calls, in memory: events, a result, and nothing printed. */

const session = emulatorsPerTest('pipewright-run-use-case-');

beforeEach(() => {
  for (const [name, value] of Object.entries({ ...FAST_RETRIES, HARNESS_API_KEY: ADMIN_KEY, PIPEWRIGHT_POLL_MS: '10' }))
    vi.stubEnv(name, value);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('runPipeline', () => {
  it('reports the check, the start and each change as events, and returns the failed stage and step', async () => {
    const em = await session.emulate({ executions: { stepMs: 10 } });
    seedPipelines(em, [failing()]);
    const events: RunEvent['type'][] = [];
    const result = await runPipeline({
      pipeline: 'default/shop/deploy',
      values: [
        { name: 'variables.env', value: 'dev' },
        { name: 'variables.tag', value: 'v1' },
      ],
      baseUrl: em.url,
      account: ACCOUNT_ID,
      config: {},
      onEvent: (event) => events.push(event.type),
    });
    expect(result).toMatchObject({
      ok: false,
      outcome: 'failed',
      status: 'Failed',
      failed: { stage: 'ship', step: 'rollout' },
      inputsFrom: 'platform',
    });
    expect(events.slice(0, 2)).toEqual(['checked', 'started']);
    expect(events).toContain('change');
    expect(events).toContain('snapshot');
  });

  it('aborts the execution when its signal fires, and starts nothing when it fired before', async () => {
    const em = await session.emulate({ executions: { stepMs: 10 } });
    seedPipelines(em, [awaitingApproval()]);
    const stop = new AbortController();
    const result = await runPipeline({
      pipeline: 'default/shop/deploy',
      baseUrl: em.url,
      account: ACCOUNT_ID,
      config: {},
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === 'waiting') stop.abort();
      },
    });
    expect(result).toMatchObject({ ok: false, outcome: 'aborted', aborted: true, status: 'Aborted' });
    expect(em.executions.interrupts).toHaveLength(1);
    const again = runPipeline({
      pipeline: 'default/shop/deploy',
      baseUrl: em.url,
      account: ACCOUNT_ID,
      config: {},
      signal: stop.signal,
    });
    await expect(again).rejects.toThrow(DiagnosticError);
    await expect(again).rejects.toThrow('nothing was started');
    expect(em.executions.runs.size).toBe(1);
  });
});
