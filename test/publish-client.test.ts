import { isGovernanceUnavailable, isRouteMissing } from '../src/platform/envelope.js';
import { createServer, type AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  backoffDelay,
  createClient,
  isAlreadyExists,
  isNotFound,
  parseBaseUrl,
  parseRetryAfter,
  publishDocument,
  RateLimiter,
  semanticDiff,
  stripLeadingComments,
} from '../src/publish/index.js';
import { buildUrl } from '../src/platform/base-url.js';
import { SoftDeletedError } from '../src/platform/client.js';
import type { Clock } from '../src/platform/clock.js';
import { failureKind } from '../src/platform/envelope.js';
import { retryPolicy, withRetry } from '../src/platform/retry.js';
import { ACCOUNT_ID, ADMIN_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { pipelineDoc, projectDoc } from './support/emulator-output.js';
import { stringify } from 'yaml';

/** A loopback port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Virtual time: sleeping advances the clock at once and is recorded, so waits are checked without waiting. */
function virtualClock(): Clock & { sleeps: number[] } {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('RateLimiter', () => {
  it('starts at most N requests in any 60 seconds', async () => {
    const clock = virtualClock();
    const limiter = new RateLimiter(3, clock);
    const starts: number[] = [];
    for (let i = 0; i < 7; i++) {
      await limiter.acquire();
      starts.push(clock.now() - 1_000_000);
    }
    expect(starts).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
  });

  it('admits concurrent callers in order, and pause() holds everyone back', async () => {
    const clock = virtualClock();
    const limiter = new RateLimiter(1000, clock);
    limiter.pause(2_500);
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => limiter.acquire().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
    expect(clock.sleeps).toEqual([2_500]);
  });
});

describe('retries', () => {
  const policy = (random: number) => retryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000, random: () => random });

  it('backs off exponentially with equal jitter, capped, and takes Retry-After as a floor', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(policy(0), n))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(policy(0.999999), n))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(policy(0), 1, 3_000)).toBe(3_000);
    expect(backoffDelay(policy(0.999999), 5, 10)).toBe(1_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  const transient = () =>
    new ApiError('HTTP 503 service unavailable', { kind: 'transient', status: 503, request: 'GET /x' });

  it('stops after the attempt budget and says how many attempts were made', async () => {
    const clock = virtualClock();
    let calls = 0;
    const error = await withRetry(
      () => Promise.reject(transient()).finally(() => calls++),
      retryPolicy({ attempts: 4, random: () => 0 }),
      { clock },
    ).catch((e: ApiError) => e);
    expect(calls).toBe(4);
    expect((error as ApiError).attempts).toBe(4);
    expect(clock.sleeps).toEqual([250, 500, 1_000]);
  });

  it('stops when the next wait would pass the total time budget', async () => {
    const clock = virtualClock();
    const error = (await withRetry(
      () => Promise.reject(transient()),
      retryPolicy({ attempts: 100, baseDelayMs: 1_000, maxDelayMs: 1_000, maxTotalMs: 3_500, random: () => 0.999999 }),
      { clock },
    ).catch((e: unknown) => e)) as ApiError;
    expect(clock.sleeps).toEqual([1_000, 1_000, 1_000]);
    expect(error.message).toContain('gave up after 4 attempts: the retry time budget of 4 s is spent');
  });

  it('does not retry what the caller must fix (400, 401, 402, 403)', async () => {
    for (const status of [400, 401, 402, 403]) {
      let calls = 0;
      const error = new ApiError(`HTTP ${status}`, { kind: failureKind(status), status, request: 'POST /x' });
      const thrown = await withRetry(
        async () => {
          calls++;
          throw error;
        },
        retryPolicy(),
        { clock: virtualClock() },
      ).catch((e: unknown) => e);
      expect(thrown).toMatchObject({ status, attempts: 1 });
      expect(calls, String(status)).toBe(1);
    }
    expect([429, 500, 502, 503, 504].map(failureKind)).toEqual([
      'transient',
      'transient',
      'transient',
      'transient',
      'transient',
    ]);
    expect([401, 403, 402, 415].map(failureKind)).toEqual(['unauthorized', 'forbidden', 'rejected', 'rejected']);
  });
});

describe('classifying answers', () => {
  const err = (status: number, code?: string, message = 'x') =>
    new ApiError(message, { kind: failureKind(status), status, ...(code ? { code } : {}), request: 'GET /x' });
  it('a route missing on the server (Jersey\'s "HTTP 404 Not Found", a proxy\'s "no such route") is not an entity missing', () => {
    expect(isNotFound(err(404, 'RESOURCE_NOT_FOUND', 'HTTP 404 Not Found'))).toBe(false);
    expect(isRouteMissing(err(404, 'RESOURCE_NOT_FOUND', 'HTTP 404 Not Found'))).toBe(true);
    expect(isRouteMissing(err(404, undefined, 'no such route'))).toBe(true);
    expect(
      isRouteMissing(err(404, 'RESOURCE_NOT_FOUND', 'HTTP 404 not found RESOURCE_NOT_FOUND: HTTP 404 Not Found')),
    ).toBe(true);
    // The entity missing, as the platform words it, stays "not there".
    expect(isNotFound(err(404, 'RESOURCE_NOT_FOUND', 'Organization with identifier [tif] not found'))).toBe(true);
    expect(isRouteMissing(err(404, 'RESOURCE_NOT_FOUND', 'Organization with identifier [tif] not found'))).toBe(false);
  });
  it("the platform's own answer to an unknown path (400 RESOURCE_NOT_FOUND_EXCEPTION, Jersey's words) is a route missing", () => {
    const wrongUrl = err(
      400,
      'RESOURCE_NOT_FOUND_EXCEPTION',
      'HTTP 400 bad request RESOURCE_NOT_FOUND_EXCEPTION: HTTP 404 Not Found',
    );
    expect(isRouteMissing(wrongUrl)).toBe(true);
    expect(isNotFound(wrongUrl)).toBe(false);
    // A missing connector answers the same code with its own words: still "not there".
    const connector = err(
      400,
      'RESOURCE_NOT_FOUND_EXCEPTION',
      'Connector with identifier [hub] not found in project [shop] and org [default].',
    );
    expect(isRouteMissing(connector)).toBe(false);
    expect(isNotFound(connector)).toBe(true);
    expect(isRouteMissing(err(400, 'INVALID_REQUEST', 'HTTP 404 Not Found'))).toBe(false);
  });
  it('policy evaluation is unavailable when the policy service is not there or the module is not licensed, never for a permission', () => {
    expect(isGovernanceUnavailable(err(404, undefined, 'HTTP 404 not found'))).toBe(true);
    expect(isGovernanceUnavailable(err(402, undefined, 'HTTP 402 request cannot be processed'))).toBe(true);
    expect(
      isGovernanceUnavailable(err(403, undefined, 'HTTP 403 forbidden: the governance module is not licensed')),
    ).toBe(true);
    expect(
      isGovernanceUnavailable(
        err(
          403,
          'NG_ACCESS_DENIED',
          'HTTP 403 forbidden NG_ACCESS_DENIED: Missing permission core_governancePolicy_evaluate',
        ),
      ),
    ).toBe(false);
    expect(isGovernanceUnavailable(err(401, 'INVALID_CREDENTIAL', 'HTTP 401 unauthorized'))).toBe(false);
    expect(isGovernanceUnavailable(err(500, undefined, 'HTTP 500 internal server error'))).toBe(false);
  });
  it('"not there" is every form of platform-facts-2.md §3, never a bare 404, 401, 403, a Git error or a 5xx', () => {
    for (const code of ['ENTITY_NOT_FOUND', 'RESOURCE_NOT_FOUND', 'RESOURCE_NOT_FOUND_EXCEPTION'])
      expect(isNotFound(err(404, code)), code).toBe(true);
    expect(isNotFound(err(400, 'RESOURCE_NOT_FOUND_EXCEPTION'))).toBe(true);
    expect(
      isNotFound(err(400, 'INVALID_REQUEST', 'InputSet with the given ID: X does not exist or has been deleted')),
    ).toBe(true);
    expect(isNotFound(err(400, 'INVALID_REQUEST', 'No connector exists with the  Identifier hub'))).toBe(true);
    expect(isNotFound(err(404))).toBe(false);
    expect(isNotFound(err(400, 'INVALID_REQUEST'))).toBe(false);
    expect(isNotFound(err(400, 'INVALID_REQUEST', 'Maximum limit has reached for MULTIPLE_CONNECTORS'))).toBe(false);
    expect(isNotFound(err(401, 'ENTITY_NOT_FOUND'))).toBe(false);
    expect(isNotFound(err(403, 'NG_ACCESS_DENIED'))).toBe(false);
    expect(
      isNotFound(err(400, 'HINT', 'Please check the requested file path [a] / branch [main] if they exist or not.')),
    ).toBe(false);
    expect(isNotFound(err(400, 'SCM_BAD_REQUEST', 'File not found'))).toBe(false);
    expect(isNotFound(err(500, 'ENTITY_NOT_FOUND'))).toBe(false);
  });
  it('"already exists" is 400 DUPLICATE_FIELD, or INVALID_REQUEST saying it exists', () => {
    expect(isAlreadyExists(err(400, 'DUPLICATE_FIELD'))).toBe(true);
    expect(
      isAlreadyExists(err(400, 'INVALID_REQUEST', 'Pipeline [a] under Project[b], Organization [c] already exists')),
    ).toBe(true);
    expect(isAlreadyExists(err(400, 'INVALID_REQUEST', 'Organization [x] does not exist'))).toBe(false);
    expect(isAlreadyExists(err(500, 'DUPLICATE_FIELD'))).toBe(false);
  });
});

describe('semantic diff', () => {
  const project = {
    project: {
      name: 'p',
      identifier: 'p',
      orgIdentifier: 'default',
      color: '#0063F7',
      description: '',
      tags: {},
      modules: [],
    },
  };

  it('ignores what the server adds: modules, delegateSelectors, timestamps; and key order and empty values', () => {
    const remote = {
      project: {
        tags: {},
        modules: ['CD', 'CI', 'CORE'],
        identifier: 'p',
        orgIdentifier: 'default',
        name: 'p',
        color: '#0063F7',
        lastModifiedAt: 5,
      },
    };
    expect(semanticDiff(project, remote)).toEqual([]);
    const connector = { connector: { identifier: 'c', type: 'DockerRegistry', spec: { auth: { type: 'Anonymous' } } } };
    expect(
      semanticDiff(connector, {
        connector: {
          identifier: 'c',
          type: 'DockerRegistry',
          spec: { auth: { type: 'Anonymous' }, delegateSelectors: [] },
        },
      }),
    ).toEqual([]);
  });

  it('reports real differences with their paths', () => {
    const local = { project: { ...project.project, modules: ['CD'], description: 'new', tags: { team: 'a' } } };
    const remote = { project: { ...project.project, modules: ['CI', 'CORE'], description: 'old' } };
    expect(semanticDiff(local, remote)).toEqual([
      { path: 'project.description', place: 'description', op: 'changed', local: 'new', remote: 'old' },
      { path: 'project.modules[0]', place: 'modules[0]', op: 'changed', local: 'CD', remote: 'CI' },
      { path: 'project.modules[1]', place: 'modules[1]', op: 'removed', remote: 'CORE' },
      { path: 'project.tags', place: 'tags', op: 'added', local: { team: 'a' } },
    ]);
    const auth = { type: 'Anonymous' };
    expect(
      semanticDiff({ connector: { spec: { auth } } }, { connector: { spec: { auth, delegateSelectors: ['d1'] } } }),
    ).toEqual([
      { path: 'connector.spec.delegateSelectors', place: 'spec.delegateSelectors', op: 'removed', remote: ['d1'] },
    ]);
  });

  const step = (identifier: string, script = 'make') => ({
    step: { type: 'ShellScript', name: identifier, identifier, spec: { source: { type: 'Inline', spec: { script } } } },
  });
  const withSteps = (...steps: object[]) => ({
    pipeline: {
      identifier: 'ci',
      stages: [{ stage: { identifier: 'build', type: 'CI', spec: { execution: { steps } } } }],
    },
  });

  it('names stages and steps by identifier, as compile does', () => {
    expect(
      semanticDiff(
        withSteps(step('lint'), step('test', 'make test')),
        withSteps(step('lint'), step('test', 'make check')),
      ),
    ).toEqual([
      {
        path: 'pipeline.stages[0].stage.spec.execution.steps[1].step.spec.source.spec.script',
        place: 'stage "build" > step "test" > spec.source.spec.script',
        op: 'changed',
        local: 'make test',
        remote: 'make check',
      },
    ]);
  });

  it('matches stages and steps by identifier: a step inserted in the middle is one addition, a new order one change', () => {
    expect(
      semanticDiff(withSteps(step('lint'), step('scan'), step('test')), withSteps(step('lint'), step('test'))),
    ).toEqual([
      {
        path: 'pipeline.stages[0].stage.spec.execution.steps[1]',
        place: 'stage "build" > step "scan"',
        op: 'added',
        local: step('scan'),
      },
    ]);
    expect(semanticDiff(withSteps(step('lint')), withSteps(step('lint'), step('old')))).toEqual([
      {
        path: 'pipeline.stages[0].stage.spec.execution.steps[1]',
        place: 'stage "build" > step "old"',
        op: 'removed',
        remote: step('old'),
      },
    ]);
    expect(semanticDiff(withSteps(step('test'), step('lint')), withSteps(step('lint'), step('test')))).toEqual([
      {
        path: 'pipeline.stages[0].stage.spec.execution.steps',
        place: 'stage "build" > spec.execution.steps',
        op: 'changed',
        local: ['test', 'lint'],
        remote: ['lint', 'test'],
      },
    ]);
  });
});

describe('base URL', () => {
  it('accepts https anywhere and http only on loopback', () => {
    expect(parseBaseUrl('https://app.harness.io/').href).toBe('https://app.harness.io/');
    expect(parseBaseUrl('https://harness.corp.example/prefix/').pathname).toBe('/prefix');
    for (const ok of ['http://127.0.0.1:8080', 'http://127.4.5.6', 'http://localhost:3000', 'http://[::1]:9000'])
      expect(() => parseBaseUrl(ok), ok).not.toThrow();
    for (const bad of [
      'http://app.harness.io',
      'http://10.0.0.1',
      'http://127.0.0.1.nip.io',
      'ftp://127.0.0.1',
      'app.harness.io',
      'https://user:pw@host',
    ])
      expect(() => parseBaseUrl(bad), bad).toThrow();
  });

  it('refuses an address that already ends with /gateway, naming the one to use', () => {
    expect(() => parseBaseUrl('https://app.harness.io/gateway/')).toThrow(
      'ends with /gateway, which pipewright adds to every request',
    );
  });

  it('puts the spec path after the base path and skips absent query values', () => {
    expect(
      buildUrl(parseBaseUrl('https://h.example/pre/'), '/gateway/ng/api/projects', {
        accountIdentifier: 'a b',
        orgIdentifier: undefined,
      }),
    ).toBe('https://h.example/pre/gateway/ng/api/projects?accountIdentifier=a+b');
  });
});

describe('documents', () => {
  it('drops the comment lines before the document and nothing else', () => {
    expect(
      stripLeadingComments(
        '# Generated by pipewright\n# yaml-language-server: $schema=x\n\npipeline:\n  name: a # keep\n',
      ),
    ).toBe('pipeline:\n  name: a # keep\n');
  });

  it('refuses documents that are not exactly one project, connector or pipeline', () => {
    expect(() => publishDocument('project: {identifier: a, orgIdentifier: default}\npipeline: {}\n')).toThrow(
      'expected one root key',
    );
    expect(() => publishDocument('pipeline:\n  identifier: a\n  orgIdentifier: default\n')).toThrow(
      'pipeline a has no projectIdentifier',
    );
    expect(() => publishDocument('pipeline: [\n')).toThrow('not valid YAML');
  });
});

describe('client against the emulator', () => {
  let emulator: Emulator;
  beforeEach(async () => {
    emulator = await startEmulator();
  });
  afterEach(async () => {
    expect(emulator.violations).toEqual([]);
    await emulator.stop();
  });
  const client = (extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
    createClient({
      baseUrl: emulator.url,
      accountId: ACCOUNT_ID,
      apiKey: ADMIN_KEY,
      retry: { baseDelayMs: 1, attempts: 3 },
      ...extra,
    });
  const yaml = (doc: object) => `# Generated by pipewright\n${stringify(doc)}`;

  it('upserts: create, then (already exists) update, for the DUPLICATE_FIELD and the INVALID_REQUEST wording', async () => {
    const c = client();
    expect((await c.upsert(yaml(projectDoc('shop')))).outcome).toBe('created');
    expect((await c.upsert(yaml(projectDoc('shop', { description: 'v2' })))).outcome).toBe('updated');
    expect((await c.upsert(yaml(pipelineDoc('deploy', 'shop')))).outcome).toBe('created');
    expect((await c.upsert(yaml(pipelineDoc('deploy', 'shop', 'echo v2')))).outcome).toBe('updated');
    expect(emulator.writes('project', 'default', undefined, 'shop')).toEqual({ creates: 1, updates: 1 });
    expect(emulator.writes('pipeline', 'default', 'shop', 'deploy')).toEqual({ creates: 1, updates: 1 });
    const remote = await c.read(publishDocument(yaml(pipelineDoc('deploy', 'shop', 'echo v2'))).id);
    expect(semanticDiff(pipelineDoc('deploy', 'shop', 'echo v2'), remote!.document)).toEqual([]);
    expect(await c.read({ kind: 'connector', org: 'default', project: 'shop', identifier: 'none' })).toBeUndefined();
  });

  it('upserts with the answer of the write, and runs the create through the caller (webhook triggers wait)', async () => {
    const c = client();
    const around: string[] = [];
    const created = await c.upsert(yaml(projectDoc('shop')), {
      aroundCreate: async (create) => {
        around.push('before');
        const answer = await create();
        around.push('after');
        return answer;
      },
    });
    expect(around).toEqual(['before', 'after']);
    expect(created.answer).toMatchObject({ status: 'SUCCESS' });
    expect(created.correlationId).toBe(created.answer.correlationId);
    const updated = await c.upsert(yaml(projectDoc('shop', { description: 'v2' })), {
      aroundCreate: (create) => create(),
    });
    expect(updated).toMatchObject({ outcome: 'updated', answer: { status: 'SUCCESS' } });
  });

  it('rejects a soft-deleted identifier ("exists" on create, missing on update) with a SoftDeletedError', async () => {
    await emulator.stop();
    emulator = await startEmulator({
      softDeleted: [{ kind: 'pipeline', org: 'default', project: 'shop', identifier: 'deploy' }],
    });
    const c = client();
    await c.upsert(yaml(projectDoc('shop')));
    const error = await c.upsert(yaml(pipelineDoc('deploy', 'shop'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SoftDeletedError);
    expect((error as SoftDeletedError).message).toContain('a deleted pipeline the platform still holds');
    // An identifier that is not held that way is created as usual: the error is about this one only.
    expect((await c.upsert(yaml(pipelineDoc('build', 'shop')))).outcome).toBe('created');
  });

  it('fails a 400 at once with the server message and correlationId', async () => {
    const error = (await client()
      .upsert(yaml(pipelineDoc('deploy', 'no_such_project')))
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(
      'HTTP 400 bad request INVALID_REQUEST: Project [no_such_project] in Organization [default] does not exist',
    );
    expect(error.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(emulator.requests).toHaveLength(1);
  });

  it('retries 5xx up to the attempt budget', async () => {
    emulator.setFaults({ rate: 1, kinds: ['error-502-html'] });
    const error = (await client()
      .upsert(yaml(projectDoc('shop')))
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('HTTP 502 bad gateway (no JSON body)');
    expect(error.attempts).toBe(3);
    expect(emulator.requests).toHaveLength(3);
  });

  it('gives up on an answer that never comes after its timeout, per attempt', async () => {
    emulator.setFaults({ rate: 1, kinds: ['hang'] });
    const error = (await client({ timeoutMs: 100, retry: { attempts: 2, baseDelayMs: 1 } })
      .read({ kind: 'project', org: 'default', identifier: 'x' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('no response to GET /gateway/ng/api/projects/x within 100 ms');
    expect(error.attempts).toBe(2);
  });

  it('keeps the key out of every error a failed call throws, however deep one looks', async () => {
    // Stack, cause chain (fetch failures nest the socket error), hidden and getter properties: all of it.
    const deep = (value: unknown) => inspect(value, { showHidden: true, depth: Infinity, getters: true });
    const unknownKey = 'pat.unknown.0123456789abcdef.fedcba9876543210';
    const errors: unknown[] = [];
    const failure = async (call: Promise<unknown>) =>
      errors.push(
        await call.then(
          () => new Error('expected this call to fail'),
          (e: unknown) => e,
        ),
      );
    const project = { kind: 'project', org: 'default', identifier: 'x' } as const;
    await failure(
      createClient({ baseUrl: emulator.url, accountId: ACCOUNT_ID, apiKey: unknownKey, retry: { attempts: 1 } }).read(
        project,
      ),
    );
    for (const kind of ['reset', 'error-500-json', 'error-503-empty', 'hang'] as const) {
      emulator.setFaults({ rate: 1, kinds: [kind] });
      await failure(
        client({ timeoutMs: 100, retry: { attempts: 2, baseDelayMs: 1 } }).upsert(yaml(projectDoc('shop'))),
      );
    }
    emulator.setFaults({ rate: 0, kinds: [] });
    // A port that was free a moment ago: nothing listens there, so the connection is refused.
    await failure(
      createClient({
        baseUrl: `http://127.0.0.1:${await closedPort()}`,
        accountId: ACCOUNT_ID,
        apiKey: ADMIN_KEY,
        retry: { attempts: 1 },
      }).read(project),
    );
    expect(errors.map((e) => (e as Error).message)).toEqual([
      expect.stringContaining('HTTP 401'),
      expect.stringMatching(/network|socket|reset|closed/i),
      expect.stringContaining('HTTP 500'),
      expect.stringContaining('HTTP 503'),
      expect.stringContaining('no response to POST'),
      expect.stringMatching(/network error on GET .*ECONNREFUSED/),
    ]);
    for (const error of errors)
      for (const secret of [ADMIN_KEY, unknownKey, ADMIN_KEY.slice(0, 12), unknownKey.slice(0, 12)])
        expect(deep(error)).not.toContain(secret);
    // The scan itself finds a key where there is one.
    expect(deep({ cause: { headers: { 'x-api-key': ADMIN_KEY } } })).toContain(ADMIN_KEY);
  });

  it('waits at least what Retry-After asks', async () => {
    await emulator.stop();
    emulator = await startEmulator({ rateLimit: { limit: 1, windowMs: 60_000, retryAfterSeconds: 7 } });
    const clock = virtualClock();
    const c = client({ clock, retry: { attempts: 3, baseDelayMs: 1 } });
    await c.read({ kind: 'project', org: 'default', identifier: 'x' });
    const error = (await c
      .read({ kind: 'project', org: 'default', identifier: 'x' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(429);
    expect(clock.sleeps.filter((ms) => ms >= 7_000).length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the key out of errors and of the client object', () => {
    const key = 'pat.with space.inside';
    let message = '';
    try {
      createClient({ baseUrl: emulator.url, accountId: ACCOUNT_ID, apiKey: key });
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain('holds characters a header cannot carry');
    expect(message).not.toContain('with space');
    expect(JSON.stringify(client())).not.toContain(ADMIN_KEY);
  });
});

describe('cancelling', () => {
  it('an aborted signal ends a request that never gets an answer, without retrying', async () => {
    const emulator = await startEmulator({ faults: { rate: 1, kinds: ['hang'] } });
    try {
      const controller = new AbortController();
      const c = createClient({
        baseUrl: emulator.url,
        accountId: ACCOUNT_ID,
        apiKey: ADMIN_KEY,
        signal: controller.signal,
      });
      const pending = c.read({ kind: 'project', org: 'default', identifier: 'x' }).catch((e: unknown) => e);
      while (emulator.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort(new Error('navigated away'));
      expect(String(await pending)).toBe('Error: navigated away');
      expect(emulator.requests).toHaveLength(1);
    } finally {
      await emulator.stop();
    }
  });
});

describe('correlationIds through retries', () => {
  it('a final answer without one keeps the correlationId an earlier attempt got', async () => {
    const first = new ApiError('HTTP 500', {
      kind: 'transient',
      status: 500,
      correlationId: 'c0ffee00-0000-4000-8000-000000000001',
      request: 'GET /x',
    });
    const last = new ApiError('HTTP 503', { kind: 'transient', status: 503, request: 'GET /x' });
    let n = 0;
    const error = (await withRetry(() => Promise.reject(n++ === 0 ? first : last), retryPolicy({ attempts: 3 }), {
      clock: virtualClock(),
    }).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 503, attempts: 3, correlationId: 'c0ffee00-0000-4000-8000-000000000001' });
  });
});
