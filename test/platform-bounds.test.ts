import { afterEach, describe, expect, it } from 'vitest';
import { pageAnswer } from '../src/platform/answers.js';
import { createClient } from '../src/platform/client.js';
import { PageBound, MAX_LIST_PAGES } from '../src/platform/page-bound.js';
import { PlatformHealth } from '../src/platform/platform-health.js';
import { MAX_REDIRECTS } from '../src/platform/transport.js';
import { ACCOUNT_ID, ADMIN_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { HostileServer, type Plan } from './support/hostile-server.js';

/**
 * The bounds of the door to the platform, in memory (the built binary meets them in hostile-platform.test.ts):
 * the hard cap on pages, redirect hops within the origin, the body limit as an option, the storm of 5xx.
 */

const running: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

async function behind(plan: Plan): Promise<{ emulator: Emulator; proxy: HostileServer }> {
  const emulator = await startEmulator();
  const proxy = await new HostileServer(emulator.url, plan).start();
  running.push(proxy, emulator);
  return { emulator, proxy };
}

const clientOf = (proxy: HostileServer, options: { maxListPages?: number; maxBodyBytes?: number } = {}) =>
  createClient({
    baseUrl: proxy.url,
    accountId: ACCOUNT_ID,
    apiKey: ADMIN_KEY,
    retry: { attempts: 1 },
    listPageSize: 5,
    ...options,
  });

const fullPage = (size: number) =>
  JSON.stringify({
    status: 'SUCCESS',
    data: { content: Array.from({ length: size }, (_, i) => ({ connector: { identifier: `c${i}` } })) },
  });

describe('PageBound', () => {
  it('allows the pages the first answer announced plus a margin (10%, at least 2), then throws naming the list', () => {
    const bound = new PageBound('GET /gateway/ng/api/servicesV2');
    for (let index = 0; index < 21; index++) bound.next(index, { totalPages: 20 }, 100);
    expect(() => bound.next(21, { totalPages: 20 }, 100)).toThrow(
      'the list GET /gateway/ng/api/servicesV2 did not end within 22 pages (its first answer announced 20 pages',
    );
  });

  it('reads the announced pages from totalItems when no totalPages comes, and ignores later totals', () => {
    const bound = new PageBound('GET /x');
    bound.next(0, { totalItems: 10 }, 5);
    bound.next(1, { totalItems: 1_000 }, 5);
    bound.next(2, { totalItems: 1_000 }, 5);
    expect(() => bound.next(3, { totalItems: 1_000 }, 5)).toThrow('did not end within 4 pages');
  });

  it('falls back to the hard cap when nothing is announced, and caps an absurd announcement', () => {
    const silent = new PageBound('GET /x', 3);
    silent.next(0, {}, 5);
    silent.next(1, {}, 5);
    expect(() => silent.next(2, {}, 5)).toThrow('3 pages is the most pipewright reads of one list');
    const absurd = new PageBound('GET /x');
    expect(() => {
      for (let index = 0; index < MAX_LIST_PAGES + 5; index++) absurd.next(index, { totalPages: 1e9 }, 100);
    }).toThrow(`did not end within ${MAX_LIST_PAGES} pages`);
  });
});

describe('the client against a hostile platform', () => {
  it('stops a list that never ends and announces no total at the hard cap (maxListPages)', async () => {
    const { proxy } = await behind(({ path }) =>
      path === '/gateway/ng/api/connectors/listV2' ? { kind: 'answer', status: 200, body: fullPage(5) } : undefined,
    );
    await expect(clientOf(proxy, { maxListPages: 4 }).list({ kind: 'connector' })).rejects.toThrow(
      'the list POST /gateway/ng/api/connectors/listV2 did not end within 4 pages (its first answer announced no total; 4 pages is the most',
    );
    expect(proxy.requests).toHaveLength(4);
  });

  it('reads a list that ends within its bound', async () => {
    let pages = 0;
    const { proxy } = await behind(({ path }) => {
      if (path !== '/gateway/ng/api/connectors/listV2') return undefined;
      pages++;
      return { kind: 'answer', status: 200, body: pages < 3 ? fullPage(5) : fullPage(2) };
    });
    expect(await clientOf(proxy, { maxListPages: 3 }).list({ kind: 'connector' })).toHaveLength(12);
  });

  it(`follows at most ${MAX_REDIRECTS} redirects within the origin, then refuses`, async () => {
    const { proxy } = await behind(({ path }) => ({ kind: 'redirect', to: path }));
    await expect(clientOf(proxy).organizationExists('default')).rejects.toThrow(
      `was redirected to ${proxy.url} more than ${MAX_REDIRECTS} times`,
    );
    expect(proxy.requests).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('takes the body limit from the options: past it an error naming the request, under it the answer', async () => {
    const { proxy } = await behind(({ seen }) => (seen === 0 ? { kind: 'huge-body', bytes: 4096 } : undefined));
    const client = clientOf(proxy, { maxBodyBytes: 2048 });
    await expect(client.organizationExists('default')).rejects.toThrow(
      'the answer to GET /gateway/ng/api/organizations/default is larger than 2 KiB',
    );
    expect(await client.organizationExists('default')).toBe(true);
  });
});

describe('PlatformHealth: a storm of server errors', () => {
  it('counts the platform failing after 10 5xx in a row from 3 requests with no other answer for 3 s', () => {
    const health = new PlatformHealth(0);
    for (let n = 0; n < 12; n++) health.serverError(100 * n, 503, `GET /${n % 3}`);
    // Twelve in a row from three requests, but only 1.1 s without a good answer: a blip.
    expect(health.gone).toBeUndefined();
    health.serverError(3_000, 503, 'GET /0');
    expect(health.gone).toMatchObject({
      kind: 'gone',
      message:
        'the platform is failing: 13 answers in a row were server errors (last: HTTP 503), from 3 or more different requests, and nothing else came back for 3 s',
    });
    expect(health.signal.aborted).toBe(true);
  });

  it('one request retrying through 5xx alone is its own retry budget, not a storm', () => {
    const health = new PlatformHealth(0);
    for (let n = 0; n < 50; n++) health.serverError(1_000 * n, 500, 'POST /gateway/pipeline/api/pipelines/v2');
    expect(health.gone).toBeUndefined();
  });

  it('any other answer, a 4xx included, starts the count again', () => {
    const health = new PlatformHealth(0, { serverErrors: { threshold: 3, requests: 2, quietMs: 0 } });
    health.serverError(10, 502, 'GET /a');
    health.serverError(20, 502, 'GET /b');
    health.answered(30);
    health.serverError(40, 502, 'GET /a');
    health.serverError(50, 502, 'GET /b');
    expect(health.gone).toBeUndefined();
    health.serverError(60, 502, 'GET /c');
    expect(health.gone?.kind).toBe('gone');
  });
});

describe('pageAnswer', () => {
  it('reads a well-formed NG or Spring page, totals under either name', () => {
    expect(pageAnswer({ content: [1], totalItems: 1, totalPages: 1 }, 'GET /x')).toEqual({
      content: [1],
      totalItems: 1,
      totalPages: 1,
    });
    expect(pageAnswer({ content: [], totalElements: 0, totalPages: 0, last: true }, 'GET /x')).toEqual({
      content: [],
      totalItems: 0,
      totalPages: 0,
      last: true,
    });
  });

  it.each([
    [null, 'data is null, not an object'],
    [[], 'data is an array, not an object'],
    [{ content: null }, 'data.content is null, not a list'],
    [{ content: [], totalItems: -1 }, 'data.totalItems is a number, not a whole number'],
    [{ content: [], totalPages: 1.5 }, 'data.totalPages is a number, not a whole number'],
    [{ content: [], last: 'yes' }, 'data.last is a string, not true or false'],
  ])('refuses %j: %s', (data, says) => {
    expect(() => pageAnswer(data, 'GET /x')).toThrow(`the platform's answer to GET /x is malformed: ${says}`);
  });
});
