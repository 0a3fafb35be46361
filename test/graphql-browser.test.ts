import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ID, ADMIN_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { bundleClient, PAGE_HTML, servePage } from './support/emulator-page.js';

/**
 * Browser mode of the GraphQL client in a real headless Chromium (Debian's chromium package; CI installs it):
 * multipart form-data, no custom headers, credentials omitted, so no CORS preflight and no cookies.
 */

const CHROMIUM = '/usr/bin/chromium';
const QUERY = '{ applications(limit: 3) { nodes { name } } }';
const EXPECTED = {
  data: { applications: { nodes: [{ name: 'checkout' }, { name: 'payments' }, { name: 'search' }] } },
};

let browser: Browser;
let emulator: Emulator;
let pageServer: { url: string; server: Server };

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const clientJs = await bundleClient();
  emulator = await startEmulator({
    pages: {
      '/page/': { contentType: 'text/html', body: PAGE_HTML },
      '/page/client.js': { contentType: 'text/javascript', body: clientJs },
    },
  });
  pageServer = await servePage(clientJs);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await emulator?.stop();
  // Only a server that started can be closed: a close callback that never comes would hang the hook.
  if (pageServer) await new Promise((resolve) => pageServer.server.close(resolve));
});

async function openPage(url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.title === 'ready');
  return page;
}

const runQuery = (page: Page, mode: 'browser' | 'header') =>
  page.evaluate(
    async ({ baseUrl, accountId, apiKey, query, mode }) => {
      const { createClient } = (window as unknown as { pipewright: typeof import('../src/publish/index.js') })
        .pipewright;
      const client = createClient({ baseUrl, accountId, apiKey, retry: { attempts: 1 } });
      try {
        return { result: await client.graphql(query, { mode }) };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { baseUrl: emulator.url, accountId: ACCOUNT_ID, apiKey: ADMIN_KEY, query: QUERY, mode },
  );

describe('GraphQL browser mode in headless Chromium', () => {
  it('works from another origin as a simple CORS request: form fields, no custom headers, no preflight', async () => {
    const page = await openPage(pageServer.url);
    const before = { calls: emulator.graphqlCalls.length, preflights: emulator.preflights };
    expect(await runQuery(page, 'browser')).toEqual({ result: EXPECTED });
    const call = emulator.graphqlCalls[before.calls]!;
    expect(call.mode).toBe('form');
    expect(call.headerNames).not.toContain('x-api-key');
    expect(call.headerNames).not.toContain('authorization');
    expect(emulator.preflights).toBe(before.preflights);
    await page.close();
  });

  it('header mode from the same page needs a preflight (what browser mode avoids)', async () => {
    const page = await openPage(pageServer.url);
    const preflights = emulator.preflights;
    expect(await runQuery(page, 'header')).toEqual({ result: EXPECTED });
    expect(emulator.preflights).toBeGreaterThan(preflights);
    await page.close();
  });

  it('omits credentials: a cookie of the API origin is not sent, even from a page on that origin', async () => {
    const context = await browser.newContext();
    await context.addCookies([{ name: 'session', value: 'console-login', url: emulator.url }]);
    const page = await context.newPage();
    await page.goto(`${emulator.url}/page/`);
    await page.waitForFunction(() => document.title === 'ready');
    // Control: the same form posted with fetch's default credentials carries the cookie, so the check below can fail.
    const control = emulator.graphqlCalls.length;
    await page.evaluate(
      async ({ url, query, apiKey }) => {
        const form = new FormData();
        form.set('query', query);
        form.set('x-api-key', apiKey);
        await fetch(url, { method: 'POST', body: form });
      },
      { url: `${emulator.url}/gateway/api/graphql?accountId=${ACCOUNT_ID}`, query: QUERY, apiKey: ADMIN_KEY },
    );
    expect(emulator.graphqlCalls[control]!.hadCookie).toBe(true);
    const calls = emulator.graphqlCalls.length;
    expect(await runQuery(page, 'browser')).toEqual({ result: EXPECTED });
    expect(emulator.graphqlCalls[calls]!.hadCookie).toBe(false);
    await context.close();
  });
});
