import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/platform/envelope.js';
import { PlatformHealth } from '../src/platform/platform-health.js';
import { retryPolicy, withRetry } from '../src/platform/retry.js';
import { pipelineDoc, projectDoc } from './support/emulator-output.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';

/**
 * A platform that goes away mid-run ends the run in seconds: after a few attempts in a row get no answer, every
 * request still retrying stops, and the documents not reached are reported as not attempted (issue: 73 documents
 * left took 4 min 15 s, each through its own backoff).
 */

const session = emulatorsPerTest('pipewright-gone-');
const { emulate, compiled } = session;

const refused = () =>
  new ApiError('network error on GET /x: connect ECONNREFUSED (ECONNREFUSED)', {
    kind: 'transient',
    code: 'ECONNREFUSED',
    request: 'GET /x',
  });

describe('PlatformHealth', () => {
  it('counts the platform gone after `threshold` unanswered attempts in a row with nothing answered for `quietMs`', () => {
    const health = new PlatformHealth(0, { threshold: 3, quietMs: 1_000 });
    health.unanswered(100, 'ECONNREFUSED', 'GET /a');
    health.unanswered(200, 'ECONNREFUSED', 'GET /a');
    health.unanswered(300, 'ECONNREFUSED', 'GET /a');
    // Three in a row, but something answered 300 ms ago: a blip, not a dead platform.
    expect(health.gone).toBeUndefined();
    health.unanswered(1_200, 'ECONNREFUSED', 'GET /b');
    expect(health.gone).toMatchObject({
      kind: 'gone',
      message: 'the platform stopped answering: 4 requests in a row got no answer, none for 1 s (last: ECONNREFUSED)',
    });
    expect(health.signal.aborted).toBe(true);
  });

  it('any answer, a 5xx included, starts the count again', () => {
    const health = new PlatformHealth(0, { threshold: 3, quietMs: 0 });
    health.unanswered(10, 'ECONNRESET', 'GET /a');
    health.unanswered(20, 'ECONNRESET', 'GET /a');
    health.answered(30);
    health.unanswered(40, 'ECONNRESET', 'GET /a');
    health.unanswered(50, 'ECONNRESET', 'GET /a');
    expect(health.gone).toBeUndefined();
  });

  it('ends a retry that is waiting out its backoff, and no retry starts after', async () => {
    const health = new PlatformHealth(Date.now(), { threshold: 1, quietMs: 0 });
    const started = Date.now();
    let attempts = 0;
    const waiting = withRetry(
      async () => {
        attempts++;
        throw refused();
      },
      retryPolicy({ baseDelayMs: 60_000, attempts: 6 }),
      { health },
    ).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    health.unanswered(Date.now(), 'ECONNREFUSED', 'GET /other');
    const error = (await waiting) as ApiError;
    expect(error.kind).toBe('gone');
    expect(attempts).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('publish when the platform goes away mid-run', () => {
  it('stops within seconds, reporting every document it did not reach as not attempted (81 documents)', async () => {
    const docs = [projectDoc('shop'), ...Array.from({ length: 80 }, (_, i) => pipelineDoc(`deploy_${i}`, 'shop'))];
    const out = await compiled(docs);
    const em = await emulate({ goneAfterRequests: 20 });
    const started = Date.now();
    // The production backoff (0.5 s doubling, 6 attempts, 30 s per attempt): what made the run take minutes.
    const result = await publishWith({
      emulator: em,
      args: [out, '--json'],
      env: { PIPEWRIGHT_RETRY_BASE_MS: '500', PIPEWRIGHT_TIMEOUT_MS: '30000' },
    });
    const elapsed = Date.now() - started;
    expect(result.code).toBe(1);
    expect(elapsed).toBeLessThan(12_000);
    const report = JSON.parse(result.stdout) as {
      counts: Record<string, number>;
      stopped: { kind: string; message: string; advice: string };
      documents: { outcome: string; error?: { reason?: string; message: string } }[];
    };
    expect(report.documents).toHaveLength(81);
    expect(report.stopped).toMatchObject({
      kind: 'gone',
      message: expect.stringMatching(/^the platform stopped answering: \d+ requests in a row got no answer/),
    });
    expect(report.stopped.advice).toContain('check that it is up');
    const notAttempted = report.documents.filter((d) => d.error?.reason === 'not attempted');
    expect(notAttempted.length).toBeGreaterThan(50);
    expect(report.counts.created! + report.counts.failed!).toBe(81);
    expect(result.stderr).toContain('pipewright: publish stopped early: the platform stopped answering during the run');
  });

  it('a flaky platform (a connection reset now and then) is not taken for a dead one', async () => {
    const docs = [projectDoc('shop'), ...Array.from({ length: 20 }, (_, i) => pipelineDoc(`deploy_${i}`, 'shop'))];
    let seen = 0;
    // Not the preflight: one request without retries fails on any fault (a test of its own elsewhere).
    const em = await emulate({ faults: { rate: 0.3, kinds: ['reset'], seed: 7, match: () => ++seen > 1 } });
    const result = await publishWith({ emulator: em, args: [await compiled(docs), '--json'] });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).counts).toEqual({ created: 21, updated: 0, unchanged: 0, failed: 0 });
  });
});
