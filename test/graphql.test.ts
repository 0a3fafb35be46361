import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/publish/index.js';
import { ACCOUNT_ID, ADMIN_KEY, READER_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { assertNoKey, FAST_RETRIES, runBinary } from './support/emulator-run.js';

let emulator: Emulator;
beforeEach(async () => {
  emulator = await startEmulator();
});
afterEach(async () => {
  expect(emulator.violations).toEqual([]);
  await emulator.stop();
});

const QUERY = '{ applications(limit: 2) { nodes { name } } }';

async function graphql(args: readonly string[], env: Record<string, string | undefined> = {}) {
  const result = await runBinary(['graphql', ...args], {
    env: {
      HARNESS_API_KEY: ADMIN_KEY,
      HARNESS_ACCOUNT_ID: ACCOUNT_ID,
      HARNESS_BASE_URL: emulator.url,
      ...FAST_RETRIES,
      ...env,
    },
  });
  assertNoKey(result);
  return result;
}

describe('pipewright graphql', () => {
  it('posts the query as JSON with the key in x-api-key and prints the result', async () => {
    const result = await graphql([QUERY]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      data: { applications: { nodes: [{ name: 'checkout' }, { name: 'payments' }] } },
    });
    expect(emulator.graphqlCalls).toHaveLength(1);
    expect(emulator.graphqlCalls[0]).toMatchObject({ mode: 'json', path: '/api/graphql' });
    expect(emulator.graphqlCalls[0]!.headerNames).toContain('x-api-key');
    expect(emulator.requests[0]!.path).toBe(`/gateway/api/graphql?accountId=${ACCOUNT_ID}`);
  });

  it('exits 1 and prints the result when it has errors', async () => {
    const result = await graphql(['{ pipelines { nodes { id } } }']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).errors[0].message).toContain('Validation error');
    expect(result.stderr).toContain('the GraphQL result has errors');
  });

  it('explains a 401 without printing the key, and takes --base-url/--account over the environment', async () => {
    const bad = await graphql([QUERY], { HARNESS_API_KEY: 'pat.revoked.token.value9' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('HTTP 401 unauthorized INVALID_CREDENTIAL');
    expect(bad.stderr).toContain('check that it holds a current token');
    expect(bad.stderr).not.toContain('pat.revoked');
    const flagged = await graphql([QUERY, '--base-url', emulator.url, '--account', ACCOUNT_ID], {
      HARNESS_BASE_URL: 'http://127.0.0.1:9',
      HARNESS_ACCOUNT_ID: 'nope',
    });
    expect(flagged.code).toBe(0);
  });

  it('refuses plain HTTP to a remote host before sending anything', async () => {
    const result = await graphql([QUERY, '--base-url', 'http://graphql.example.com']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refusing to send the API key over plain HTTP');
    expect(emulator.requests).toEqual([]);
  });
});

describe('GraphQL library client (Node)', () => {
  const client = () =>
    createClient({ baseUrl: emulator.url, accountId: ACCOUNT_ID, apiKey: READER_KEY, retry: { baseDelayMs: 1 } });

  it('browser mode sends multipart form-data with query and x-api-key fields and no x-api-key header', async () => {
    const result = await client().graphql(QUERY, { mode: 'browser' });
    expect(result).toEqual({ data: { applications: { nodes: [{ name: 'checkout' }, { name: 'payments' }] } } });
    expect(emulator.graphqlCalls[0]!.mode).toBe('form');
    expect(emulator.graphqlCalls[0]!.headerNames).not.toContain('x-api-key');
  });

  it('reaches endpoint 2 (graphql-api) with the same request', async () => {
    await client().graphql(QUERY, { endpoint: 'graphql-api' });
    expect(emulator.graphqlCalls[0]).toMatchObject({ mode: 'json', path: '/api/graphql-api' });
  });

  it('retries a 503 and then answers', async () => {
    emulator.setFaults({ rate: 1, kinds: ['error-503-empty'], match: () => emulator.requests.length === 0 });
    expect(await client().graphql(QUERY)).toHaveProperty('data');
    expect(emulator.requests.map((r) => r.status)).toEqual([503, 200]);
  });
});
