import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTree, type CliResult } from './support/cli.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './support/emulator.js';
import { pipelineDoc, projectDoc, generateDocuments } from './support/emulator-output.js';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, runBinary, SECRET_KEYS } from './support/emulator-run.js';
import { seedDocuments } from './support/emulator-seed.js';
import { makeSelfSignedCert } from './support/emulator-tls.js';
import { HostileServer, KeyCatcher, type Attack, type Plan } from './support/hostile-server.js';

/**
 * The built binary against a hostile platform (test/support/hostile-server.ts, in front of the emulator): each
 * attack ends within its bound with a clear message and exit 1, the key reaches no other origin and is printed
 * nowhere, memory stays bounded, nothing is written outside the output folder and no record entry is lost.
 * docs/security.md, "Network", lists the attack classes and the test for each.
 */

const session = emulatorsPerTest('pipewright-hostile-');
const servers: Array<{ stop(): Promise<void> }> = [];
let catcher: KeyCatcher;

beforeEach(async () => {
  catcher = await new KeyCatcher(SECRET_KEYS).start();
  servers.push(catcher);
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function hostile(emulator: Emulator, plan: Plan, tls?: { key: string; cert: string }): Promise<HostileServer> {
  const server = await new HostileServer(emulator.url, plan, tls).start();
  servers.push(server);
  return server;
}

/** An unbounded read of an endless body crashes a heap this small; a bounded one never comes near it. */
const SMALL_HEAP = '--max-old-space-size=96';

async function run(
  args: readonly string[],
  baseUrl: string,
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  const result = await runBinary(args, {
    cwd: session.work,
    env: {
      HARNESS_API_KEY: ADMIN_KEY,
      HARNESS_ACCOUNT_ID: ACCOUNT_ID,
      HARNESS_BASE_URL: baseUrl,
      NODE_EXTRA_CA_CERTS: undefined,
      NODE_OPTIONS: SMALL_HEAP,
      PIPEWRIGHT_LIST_PAGE_SIZE: '5',
      ...FAST_RETRIES,
      ...env,
    },
  });
  assertNoKey(result);
  return result;
}

/** Exit 1 with a message, never a crash: no stack trace, no "unexpected error", no V8 heap failure. */
function expectCleanFailure(result: CliResult, message: RegExp | string): string {
  const output = `${result.stdout}\n${result.stderr}`;
  expect(result.code, output).toBe(1);
  expect(output).not.toMatch(/unexpected error|\n\s+at .+:\d+:\d+|heap out of memory|FATAL ERROR/i);
  if (typeof message === 'string') expect(output).toContain(message);
  else expect(output).toMatch(message);
  return output;
}

/** Files and folders directly in the test's folder: what a run may have created there. */
const topLevel = async () => (await readdir(session.work)).sort();

const estate = (em: Emulator) =>
  seedDocuments(em, [projectDoc('shop'), pipelineDoc('build', 'shop'), pipelineDoc('deploy', 'shop')]);

const PIPELINE_LIST = '/gateway/pipeline/api/pipelines/list';
const isPipelineList = (path: string) => path === PIPELINE_LIST;

describe('a redirect never takes the key to another origin', () => {
  const commands: ReadonlyArray<{ name: string; args: (dir: string) => string[] }> = [
    { name: 'publish', args: (dir) => ['publish', dir] },
    { name: 'publish --dry-run', args: (dir) => ['publish', dir, '--dry-run'] },
    { name: 'pull', args: () => ['pull', '--org', 'default', '--project', 'shop', '-o', 'platform'] },
    { name: 'graphql', args: () => ['graphql', '{ pipelines { identifier } }'] },
  ];

  it.each(commands)(
    '$name: a 307 to a second local server is refused, and that server gets nothing',
    async ({ args }) => {
      const em = await session.emulate();
      estate(em);
      const dir = await session.compiled([projectDoc('shop'), pipelineDoc('build', 'shop')]);
      const proxy = await hostile(em, ({ path, query }) => ({
        kind: 'redirect',
        to: `${catcher.url}${path}?${query.toString()}`,
      }));
      const output = expectCleanFailure(await run(args(dir), proxy.url), `redirected to ${catcher.url}`);
      expect(output).toContain("sends the API key only to the base URL's origin");
      expect(catcher.received).toEqual([]);
      expect(await topLevel()).toEqual(['out']);
    },
  );

  it('a redirect within the base URL origin is followed (a proxy that moved a path), and the run succeeds', async () => {
    const em = await session.emulate();
    const docs = [projectDoc('shop'), pipelineDoc('build', 'shop')];
    const dir = await session.compiled(docs);
    const proxy = await hostile(em, ({ path, query }) =>
      path.startsWith('/old/')
        ? { kind: 'redirect', status: 308, to: `${path.slice(4)}?${query.toString()}` }
        : undefined,
    );
    const result = await run(['publish', dir], `${proxy.url}/old`);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(proxy.requests.filter((r) => r.attack === 'redirect').length).toBeGreaterThan(0);
    expect(em.resource('pipeline', 'default', 'shop', 'build')).toBeDefined();
    expect(catcher.received).toEqual([]);
  });

  it('https -> http on another port: refused as a redirect from https to plain http', async () => {
    const em = await session.emulate();
    estate(em);
    const cert = makeSelfSignedCert(session.work);
    const dir = await session.compiled([projectDoc('shop')]);
    const proxy = await hostile(
      em,
      ({ path, seen }) => (seen === 0 ? undefined : { kind: 'redirect', to: `${catcher.url}${path}` }),
      cert,
    );
    const result = await run(['publish', dir, '--dry-run'], proxy.url, { NODE_EXTRA_CA_CERTS: cert.certFile });
    expectCleanFailure(result, `redirected from https to plain http to ${catcher.url}`);
    expect(catcher.received).toEqual([]);
  });
});

describe('every body is bounded', () => {
  it('pull: an endless body ends in an error within the limit, the stream cancelled, memory low', async () => {
    const em = await session.emulate();
    estate(em);
    const proxy = await hostile(em, ({ path }) => (isPipelineList(path) ? { kind: 'endless-body' } : undefined));
    const result = await run(['pull', '--org', 'default', '--project', 'shop', '-o', 'platform'], proxy.url);
    expectCleanFailure(result, `the answer to POST ${PIPELINE_LIST} is larger than 32 MiB`);
    // The server stops writing when the client cancels: what it sent is the limit and what the socket buffered.
    expect(proxy.bodyBytesSent).toBeLessThan(48 * 1024 * 1024);
    expect(await topLevel()).toEqual([]);
  });

  it('publish --dry-run: a body that announces 100 MiB is refused before it is read; every document fails', async () => {
    const em = await session.emulate();
    estate(em);
    const dir = await session.compiled([projectDoc('shop'), pipelineDoc('build', 'shop')]);
    const proxy = await hostile(em, ({ method, seen }) =>
      seen > 0 && method === 'GET' ? { kind: 'huge-body', bytes: 100 * 1024 * 1024, declared: true } : undefined,
    );
    const output = expectCleanFailure(await run(['publish', dir, '--dry-run'], proxy.url), 'is larger than 32 MiB');
    expect(output).toMatch(/2 failed/);
    expect(proxy.bodyBytesSent).toBeLessThan(2 * 1024 * 1024);
  });
});

/**
 * A Spring page of the pipeline list with `size` made-up items, never the last: it announces `total` items (and,
 * with `pages`, as many pages as they fill), then keeps answering full pages past them.
 */
function endlessPage(index: number, size: number, total: number, pages: boolean): Attack {
  const content = Array.from({ length: size }, (_, i) => ({
    identifier: `p_${index}_${i}`,
    yamlVersion: '0',
    storeType: 'INLINE',
  }));
  return {
    kind: 'answer',
    status: 200,
    body: JSON.stringify({
      status: 'SUCCESS',
      data: {
        content,
        ...(pages ? { totalPages: Math.ceil(total / size) } : {}),
        totalElements: total,
        number: index,
        size,
        last: false,
      },
    }),
  };
}

describe('every list is bounded', () => {
  it.each([
    { attack: 'full pages past the total announced', total: (_index: number) => 10, pages: false },
    { attack: 'a total that grows with every page', total: (index: number) => 10 + 5 * index, pages: true },
  ])('pull: $attack stop past the pages the first answer announced, plus a margin', async ({ total, pages }) => {
    const em = await session.emulate();
    estate(em);
    const proxy = await hostile(em, ({ path, query }) =>
      isPipelineList(path)
        ? endlessPage(Number(query.get('page')), Number(query.get('size')), total(Number(query.get('page'))), pages)
        : undefined,
    );
    const result = await run(['pull', '--org', 'default', '--project', 'shop', '-o', 'platform'], proxy.url);
    expectCleanFailure(result, `the list POST ${PIPELINE_LIST} did not end within 4 pages`);
    expect(proxy.requests.filter((r) => isPipelineList(r.path))).toHaveLength(4);
    expect(await topLevel()).toEqual([]);
  });
});

describe('answers are checked', () => {
  const rewrites: ReadonlyArray<{
    shape: string;
    rewrite: (answer: Record<string, unknown>) => unknown;
    says: string;
  }> = [
    { shape: 'data: null', rewrite: (a) => ({ ...a, data: null }), says: 'data is null, not an object' },
    {
      shape: 'content a string',
      rewrite: (a) => ({ ...a, data: { ...(a.data as object), content: 'none' } }),
      says: 'data.content is a string, not a list',
    },
    {
      shape: 'totalPages a string',
      rewrite: (a) => ({ ...a, data: { ...(a.data as object), totalPages: 'many' } }),
      says: 'data.totalPages is a string, not a whole number',
    },
    {
      shape: 'an item without identifier',
      rewrite: (a) => ({ ...a, data: { ...(a.data as object), content: [{ name: 'x' }] } }),
      says: 'data.content[0] has no identifier',
    },
  ];

  it.each(rewrites)('pull: a list answer with $shape is an error naming the request', async ({ rewrite, says }) => {
    const em = await session.emulate();
    estate(em);
    const proxy = await hostile(em, ({ path }) => (isPipelineList(path) ? { kind: 'rewrite', rewrite } : undefined));
    const result = await run(['pull', '--org', 'default', '--project', 'shop', '-o', 'platform'], proxy.url);
    expectCleanFailure(result, `the platform's answer to POST ${PIPELINE_LIST} is malformed: ${says}`);
    expect(await topLevel()).toEqual([]);
  });

  it('publish: a GET answered SUCCESS with data: null fails that document, naming the request', async () => {
    const em = await session.emulate();
    estate(em);
    const dir = await session.compiled([projectDoc('shop')]);
    const proxy = await hostile(em, ({ seen, method }) =>
      seen > 0 && method === 'GET'
        ? { kind: 'answer', status: 200, body: JSON.stringify({ status: 'SUCCESS', data: null }) }
        : undefined,
    );
    expectCleanFailure(
      await run(['publish', dir], proxy.url),
      "the platform's answer to GET /gateway/ng/api/projects/shop is malformed: data is null",
    );
    expect(em.writes('project', 'default', undefined, 'shop')).toMatchObject({ creates: 0, updates: 0 });
  });
});

describe('a storm of server errors stops the run', () => {
  it('publish: 503 for every request after the first ends the run within a bounded number of requests', async () => {
    const em = await session.emulate();
    const docs = generateDocuments(4, 1, 2);
    const dir = await session.compiled(docs);
    const proxy = await hostile(em, ({ seen }) =>
      seen === 0 ? undefined : { kind: 'answer', status: 503, body: '', contentType: 'text/plain' },
    );
    // The production retry delays: with them, each document alone would retry for about 15 s.
    const result = await run(['publish', dir], proxy.url, { PIPEWRIGHT_RETRY_BASE_MS: '500' });
    expectCleanFailure(result, /the platform is failing: \d+ answers in a row were server errors \(last: HTTP 503\)/);
    expect(result.stdout).toMatch(/not attempted/);
    // Four documents in flight, six attempts each, would be 24 requests of the first wave alone.
    expect(proxy.requests.length).toBeLessThan(20);
  });
});

describe('what the platform sends is data', () => {
  it('publish: a key echoed in an error message and correlationId is printed nowhere', async () => {
    const em = await session.emulate();
    const dir = await session.compiled([projectDoc('shop')]);
    const proxy = await hostile(em, ({ seen }) =>
      seen === 0
        ? undefined
        : {
            kind: 'answer',
            status: 400,
            body: JSON.stringify({
              status: 'ERROR',
              code: 'INVALID_REQUEST',
              message: `the key ${ADMIN_KEY} is not allowed here`,
              correlationId: ADMIN_KEY,
            }),
          },
    );
    for (const args of [
      [dir, '--json'],
      [dir, '--dry-run'],
    ]) {
      const output = expectCleanFailure(await run(['publish', ...args], proxy.url), '[redacted]');
      expect(output).not.toContain(ADMIN_KEY);
    }
  });

  it('pull: identifiers with ../, control characters and U+2028 are refused and printed escaped; nothing lands outside the output folder, and a later malformed answer loses no record entry', async () => {
    const em = await session.emulate();
    estate(em);
    const hostileIds = ['../../evil', 'bell\u0007name', 'line\u2028break'];
    let malformed = false;
    const proxy = await hostile(em, ({ path }) => {
      if (!isPipelineList(path)) return undefined;
      if (malformed) return { kind: 'rewrite', rewrite: (a) => ({ ...a, data: null }) };
      return {
        kind: 'rewrite',
        rewrite: (answer) => {
          const data = answer.data as { content: unknown[]; totalElements: number };
          const extra = hostileIds.map((identifier) => ({ identifier, yamlVersion: '0', storeType: 'INLINE' }));
          return { ...answer, data: { ...data, content: [...data.content, ...extra], totalElements: 5 } };
        },
      };
    });
    const args = ['pull', '--org', 'default', '--project', 'shop', '-o', 'platform'];
    const first = await run(args, proxy.url, { NODE_OPTIONS: undefined, PIPEWRIGHT_LIST_PAGE_SIZE: '100' });
    const output = `${first.stdout}\n${first.stderr}`;
    // Refused identities fail the pull (unsafe-identity), after the rest is written.
    expect(first.code, output).toBe(1);
    expect(output).toMatch(/unsafe-identity/);
    expect(output).toContain('line\\u2028break');
    expect(output).toContain('bell\\u0007name');
    expect(output).not.toMatch(/[\u2028\u0007]/);
    expect(await topLevel()).toEqual(['platform']);
    const tree = await readTree(join(session.work, 'platform'));
    expect(Object.keys(tree).some((file) => /evil|bell|break/.test(file))).toBe(false);
    expect(Object.keys(tree).filter((file) => file.includes('pipelines/'))).not.toEqual([]);

    malformed = true;
    const second = await run(args, proxy.url, { NODE_OPTIONS: undefined });
    expectCleanFailure(second, 'data is null, not an object');
    expect(await readTree(join(session.work, 'platform'))).toEqual(tree);
  });
});
