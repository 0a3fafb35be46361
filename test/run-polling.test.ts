import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/platform/client.js';
import type { Clock } from '../src/platform/clock.js';
import { followExecution } from '../src/run/follow.js';
import { DEFAULT_PACING, pollDelay } from '../src/run/poll-delay.js';
import { ACCOUNT_ID, ADMIN_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { awaitingApproval, plain, seedPipelines } from './support/run-fixtures.js';

describe('pollDelay: how long run waits between two reads of an execution', () => {
  it('waits a second at least, however young the run', () => {
    expect([0, 1, 500, 10_000, 20_000].map((elapsed) => pollDelay(elapsed))).toEqual([1000, 1000, 1000, 1000, 1000]);
  });

  it('waits longer as the run grows old: a twentieth of the time elapsed', () => {
    expect(pollDelay(60_000)).toBe(3000);
    expect(pollDelay(120_000)).toBe(6000);
  });

  it('never waits longer than the cap, so a change is seen within 15 s', () => {
    expect(pollDelay(3_600_000)).toBe(DEFAULT_PACING.maxMs);
    expect(DEFAULT_PACING.maxMs).toBe(15_000);
  });

  it('keeps an hour-long run to a few hundred reads', () => {
    let reads = 0;
    for (let elapsed = 0; elapsed < 3_600_000; elapsed += pollDelay(elapsed)) reads++;
    expect(reads).toBeGreaterThan(200);
    expect(reads).toBeLessThan(300);
  });

  it('takes a shorter floor only when asked (PIPEWRIGHT_POLL_MS, for tests)', () => {
    expect(pollDelay(0, { minMs: 20, maxMs: 15_000 })).toBe(20);
    expect(pollDelay(-5)).toBe(1000);
  });
});

const emulators: Emulator[] = [];
afterEach(async () => {
  for (const em of emulators.splice(0)) {
    expect(em.violations).toEqual([]);
    await em.stop();
  }
});

/** A clock whose time is what the waits asked for (each wait passes at once, after a few real milliseconds). */
function recordingClock(): Clock & { readonly waits: number[] } {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}

describe('followExecution against the emulator', () => {
  it('asks for waits that start at a second and grow with the run, and reports each change and each wait once', async () => {
    const emulator = await startEmulator({ executions: { stepMs: 20 } });
    emulators.push(emulator);
    seedPipelines(emulator, [awaitingApproval('gated')]);
    const client = createClient({ baseUrl: emulator.url, accountId: ACCOUNT_ID, apiKey: ADMIN_KEY });
    const planExecutionId = await client.execute({ org: 'default', project: 'shop', pipeline: 'gated' }, '');
    const clock = recordingClock();
    const changes: string[] = [];
    const waits: string[] = [];
    const end = await followExecution({
      client,
      scope: { org: 'default', project: 'shop', planExecutionId },
      clock,
      // A minute of the clock's time, waiting on the approval; left waiting at the end.
      timeoutMs: 60_000,
      detach: true,
      onEvent: (event) => {
        if (event.type === 'change')
          changes.push(`${event.step?.identifier ?? event.stage.identifier} ${(event.step ?? event.stage).status}`);
        if (event.type === 'waiting') waits.push(`${event.status} ${event.step?.identifier}`);
      },
    });
    expect(end).toMatchObject({ by: 'timeout', aborted: false });
    expect(clock.waits.reduce((sum, wait) => sum + wait, 0)).toBe(60_000);
    // A second apart for the first twenty seconds (21 waits: 0 s to 20 s), then longer and longer.
    expect(clock.waits.slice(0, 21)).toEqual(Array.from({ length: 21 }, () => 1000));
    const later = clock.waits.slice(21, -1);
    expect(later.length).toBeGreaterThan(5);
    later.forEach((wait, index) => expect(wait).toBeGreaterThan(index === 0 ? 1000 : later[index - 1]!));
    // A minute of reads costs fewer than one a second: 21 in the first twenty seconds, 22 in the next forty.
    expect(clock.waits.length).toBe(43);
    expect(emulator.executions.statusReads.length).toBe(clock.waits.length + 1);
    // Each status once, however many reads saw it; the wait for the approval once.
    expect(new Set(changes).size).toBe(changes.length);
    expect(changes).toContain('compile Success');
    expect(changes).toContain('approve ApprovalWaiting');
    expect(waits).toEqual(['ApprovalWaiting approve']);
  });

  it('ends at the timeout with an abort, on the clock it is given', async () => {
    const emulator = await startEmulator({ executions: { stepMs: 60_000 } });
    emulators.push(emulator);
    seedPipelines(emulator, [plain('slow', 1)]);
    const client = createClient({ baseUrl: emulator.url, accountId: ACCOUNT_ID, apiKey: ADMIN_KEY });
    const planExecutionId = await client.execute({ org: 'default', project: 'shop', pipeline: 'slow' }, '');
    const clock = recordingClock();
    const end = await followExecution({
      client,
      scope: { org: 'default', project: 'shop', planExecutionId },
      clock,
      timeoutMs: 2500,
    });
    expect(end).toMatchObject({ by: 'timeout', aborted: true });
    expect(end.snapshot.status).toBe('Aborted');
    // The last wait is cut to the deadline: 1000 + 1000 + 500.
    expect(clock.waits).toEqual([1000, 1000, 500]);
    expect(emulator.executions.interrupts.map((i) => i.type)).toEqual(['AbortAll']);
  });
});
