import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ACCOUNT_ID, ADMIN_KEY, READER_KEY, ROTATED_KEY, startEmulator, type Emulator, type EmulatorOptions } from './support/emulator.js';
import { connectorDoc, pipelineDoc, projectDoc } from './support/emulator-output.js';

/**
 * The emulator itself: the publish tests assert "no violations", which only means something if the emulator
 * does catch a request that breaks the API contract. Raw fetch here, no pipewright code.
 */

let emulator: Emulator;
beforeEach(async () => {
  emulator = await startEmulator({ rateLimit: { limit: 20, windowMs: 60_000, retryAfterSeconds: 3 } });
});
afterEach(() => emulator.stop());

const call = async (
  method: string,
  path: string,
  { body, type, key = ADMIN_KEY, on = emulator, headers: extra = {} }: { body?: string; type?: string; key?: string | null; on?: Emulator; headers?: Record<string, string> } = {},
) => {
  const headers: Record<string, string> = { ...extra };
  if (key !== null) headers['x-api-key'] = key;
  if (type) headers['content-type'] = type;
  const response = await fetch(`${on.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
};
const q = `accountIdentifier=${ACCOUNT_ID}`;
const createProject = (doc = projectDoc('shop'), type = 'application/yaml') => call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, { body: stringify(doc), type });

describe('platform emulator', () => {
  it('answers with the envelope, fills in modules and delegateSelectors, and serves pipelines as YAML text', async () => {
    const created = await createProject();
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ status: 'SUCCESS', metaData: null, correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(created.json.data.project.modules).toContain('CD');
    expect(typeof created.json.data.createdAt).toBe('number');
    const connector = await call('POST', `/gateway/ng/api/connectors?${q}`, { body: stringify(connectorDoc('hub', 'shop')), type: 'text/yaml' });
    expect(connector.json.data.connector.spec.delegateSelectors).toEqual([]);
    expect(connector.json.data.entityValidityDetails).toEqual({ valid: true, invalidYaml: null });
    const pipeline = await call('POST', `/gateway/pipeline/api/pipelines?${q}&orgIdentifier=default&projectIdentifier=shop`, { body: stringify(pipelineDoc('deploy', 'shop')), type: 'application/yaml' });
    expect(pipeline.json.data).toBe('deploy');
    const read = await call('GET', `/gateway/pipeline/api/pipelines/deploy?${q}&orgIdentifier=default&projectIdentifier=shop`);
    expect(typeof read.json.data.yamlPipeline).toBe('string');
    expect(emulator.violations).toEqual([]);
    expect(emulator.writes('project', 'default', undefined, 'shop')).toEqual({ creates: 1, updates: 0 });
  });

  it('says "exists" and "not there" the ways the platform does', async () => {
    await createProject();
    expect((await createProject()).json).toMatchObject({ code: 'DUPLICATE_FIELD' });
    expect((await call('GET', `/gateway/ng/api/projects/none?${q}&orgIdentifier=default`)).json).toMatchObject({ code: 'ENTITY_NOT_FOUND' });
    const connector = await call('GET', `/gateway/ng/api/connectors/none?${q}&orgIdentifier=default&projectIdentifier=shop`);
    expect([connector.status, connector.json.code]).toEqual([400, 'RESOURCE_NOT_FOUND_EXCEPTION']);
    await call('POST', `/gateway/pipeline/api/pipelines?${q}&orgIdentifier=default&projectIdentifier=shop`, { body: stringify(pipelineDoc('p', 'shop')), type: 'application/yaml' });
    const again = await call('POST', `/gateway/pipeline/api/pipelines?${q}&orgIdentifier=default&projectIdentifier=shop`, { body: stringify(pipelineDoc('p', 'shop')), type: 'application/yaml' });
    expect(again.json).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('already exists') });
  });

  it.each([
    ['a wrong content type', () => createProject(projectDoc('shop'), 'text/yaml'), 415],
    ['an unknown query parameter', () => call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default&debug=1`), 400],
    ['a missing required query parameter', () => call('POST', `/gateway/ng/api/projects?${q}`, { body: stringify(projectDoc('shop')), type: 'application/yaml' }), 400],
    ['a body with the wrong root key', () => call('POST', `/gateway/ng/api/connectors?${q}`, { body: stringify(projectDoc('shop')), type: 'text/yaml' }), 400],
    ['a body that is not YAML', () => call('POST', `/gateway/ng/api/connectors?${q}`, { body: 'connector: [', type: 'text/yaml' }), 400],
    ['an unknown endpoint', () => call('GET', `/gateway/ng/api/project/x?${q}`), 404],
    ['a path identifier unlike the body', () => call('PUT', `/gateway/ng/api/projects/other?${q}&orgIdentifier=default`, { body: stringify(projectDoc('shop')), type: 'application/yaml' }), 400],
  ] as const)('records %s as a contract violation', async (_name, request, status) => {
    expect((await request()).status).toBe(status);
    expect(emulator.violations).toHaveLength(1);
  });

  it('knows keys and roles: 401 for an unknown or missing key, 403 for a read-only key that writes', async () => {
    expect((await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key: 'nope' })).status).toBe(401);
    expect((await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key: null })).status).toBe(401);
    expect((await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key: READER_KEY })).status).toBe(404);
    const write = await call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, { body: stringify(projectDoc('shop')), type: 'application/yaml', key: READER_KEY });
    expect([write.status, write.json.code]).toEqual([403, 'NG_ACCESS_DENIED']);
    expect(emulator.totalWrites()).toBe(0);
  });

  it('rotates a key: the old one serves the requests it has left, then gets the 401 an unknown key gets; the new one works', async () => {
    const read = (key: string) => call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key });
    emulator.rotateKey(ADMIN_KEY, ROTATED_KEY, { afterRequests: 2 });
    expect([(await read(ADMIN_KEY)).status, (await read(ADMIN_KEY)).status]).toEqual([404, 404]);
    const revoked = await read(ADMIN_KEY);
    const unknown = await read('pat.never.issued.Kx7');
    expect(revoked.status).toBe(401);
    // The same answer as the platform's for any invalid token, only the correlationId differs.
    expect({ ...revoked.json, correlationId: undefined }).toEqual({ ...unknown.json, correlationId: undefined });
    expect(revoked.json).toMatchObject({ code: 'INVALID_CREDENTIAL', correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // Revoked for good, writes included; the new key holds the old one's role and other keys are untouched.
    expect((await createProject(projectDoc('shop'))).status).toBe(401);
    expect(emulator.totalWrites()).toBe(0);
    const write = await call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, { body: stringify(projectDoc('shop')), type: 'application/yaml', key: ROTATED_KEY });
    expect(write.status).toBe(200);
    expect((await read(READER_KEY)).status).toBe(404);
  });

  it('limits the rate per key, with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`)).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const limited = await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`);
    expect(limited.headers.get('retry-after')).toBe('3');
    // Another key has its own window.
    expect((await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key: READER_KEY })).status).toBe(404);
  });

  it('applies a write and then drops the connection when asked to', async () => {
    emulator.setFaults({ rate: 1, kinds: ['drop-after-write'] });
    await expect(createProject()).rejects.toThrow();
    expect(emulator.writes('project', 'default', undefined, 'shop')).toEqual({ creates: 1, updates: 0 });
  });
});

describe('platform emulator: the answers of platform-facts-2.md', () => {
  /** A second emulator with other behaviour; stopped after the test. */
  const withEmulator = async (options: EmulatorOptions, test: (em: Emulator) => Promise<void>) => {
    const em = await startEmulator(options);
    try {
      await test(em);
    } finally {
      await em.stop();
    }
  };
  const scope = `${q}&orgIdentifier=default&projectIdentifier=shop`;
  const seedProject = (on: Emulator) => call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, { body: stringify(projectDoc('shop')), type: 'application/yaml', on });

  it.each([
    ['404 ENTITY_NOT_FOUND', 404, 'ERROR'],
    ['404 RESOURCE_NOT_FOUND', 404, 'ERROR'],
    ['404 RESOURCE_NOT_FOUND_EXCEPTION', 404, 'FAILURE'],
    ['400 RESOURCE_NOT_FOUND_EXCEPTION', 400, 'FAILURE'],
    ['400 INVALID_REQUEST', 400, 'ERROR'],
  ] as const)('answers a missing resource with %s when configured, for every kind', async (form, status, shape) => {
    await withEmulator({ notFound: { project: form, connector: form, pipeline: form } }, async (on) => {
      for (const path of [`/gateway/ng/api/projects/none?${q}&orgIdentifier=default`, `/gateway/ng/api/connectors/none?${scope}`, `/gateway/pipeline/api/pipelines/none?${scope}`]) {
        const answer = await call('GET', path, { on });
        expect([answer.status, answer.json.status, answer.json.code]).toEqual([status, shape, form.split(' ')[1]]);
        expect(answer.json.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });

  it('answers updates of a missing id with 400 INVALID_REQUEST, in each service\'s words', async () => {
    const project = await call('PUT', `/gateway/ng/api/projects/shop?${q}&orgIdentifier=default`, { body: stringify(projectDoc('shop')), type: 'application/yaml' });
    expect([project.status, project.json.code, project.json.message]).toEqual([400, 'INVALID_REQUEST', 'Project with identifier [shop] and orgIdentifier [default] not found']);
    await createProject();
    const connector = await call('PUT', `/gateway/ng/api/connectors?${q}`, { body: stringify(connectorDoc('hub', 'shop')), type: 'text/yaml' });
    expect(connector.json.message).toBe('No connector exists with the  Identifier hub');
  });

  it('denies a configured write with 200 SUCCESS, governanceMetadata.deny and no entity, and stores nothing', async () => {
    await withEmulator(
      { deny: [{ kind: 'pipeline', identifier: 'p', policySet: 'Prod approvals', message: 'a Deployment stage needs an approval' }, { kind: 'connector', identifier: 'hub', message: 'no public registries' }] },
      async (on) => {
        await seedProject(on);
        const pipeline = await call('POST', `/gateway/pipeline/api/pipelines?${scope}`, { body: stringify(pipelineDoc('p', 'shop')), type: 'application/yaml', on });
        expect([pipeline.status, pipeline.json.status]).toEqual([200, 'SUCCESS']);
        expect(pipeline.json.data.identifier).toBeUndefined();
        expect(pipeline.json.data.governanceMetadata).toMatchObject({ deny: true, details: [{ policySetName: 'Prod approvals', policyMetadata: [{ denyMessages: ['a Deployment stage needs an approval'] }] }] });
        const connector = await call('POST', `/gateway/ng/api/connectors?${q}`, { body: stringify(connectorDoc('hub', 'shop')), type: 'text/yaml', on });
        expect(connector.json.data).toMatchObject({ connector: null, governanceMetadata: { deny: true } });
        expect(on.resource('pipeline', 'default', 'shop', 'p')).toBeUndefined();
        expect(on.resource('connector', 'default', 'shop', 'hub')).toBeUndefined();
        // Others pass.
        expect((await call('POST', `/gateway/pipeline/api/pipelines?${scope}`, { body: stringify(pipelineDoc('q', 'shop')), type: 'application/yaml', on })).json.data).toBe('q');
      },
    );
  });

  it('refuses creates past a licence limit with 400 INVALID_REQUEST', async () => {
    await withEmulator({ limits: { connector: 1 } }, async (on) => {
      await seedProject(on);
      expect((await call('POST', `/gateway/ng/api/connectors?${q}`, { body: stringify(connectorDoc('a', 'shop')), type: 'text/yaml', on })).status).toBe(200);
      const second = await call('POST', `/gateway/ng/api/connectors?${q}`, { body: stringify(connectorDoc('b', 'shop')), type: 'text/yaml', on });
      expect([second.status, second.json.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(second.json.message).toMatch(/limit/);
    });
  });

  it('sends a project\'s version as ETag and refuses a stale If-Match with 400 OPTIMISTIC_LOCKING_EXCEPTION', async () => {
    await createProject();
    const read = await call('GET', `/gateway/ng/api/projects/shop?${q}&orgIdentifier=default`);
    expect(read.headers.get('etag')).toBe('W/"1"');
    const put = (ifMatch: string) =>
      call('PUT', `/gateway/ng/api/projects/shop?${q}&orgIdentifier=default`, { body: stringify(projectDoc('shop', { color: '#111111' })), type: 'application/yaml', headers: { 'if-match': ifMatch } });
    expect((await put('1')).status).toBe(200);
    const stale = await put('1');
    expect([stale.status, stale.json.status, stale.json.code]).toEqual([400, 'FAILURE', 'OPTIMISTIC_LOCKING_EXCEPTION']);
    expect((await put('W/"2"')).status).toBe(200);
    expect(emulator.writes('project', 'default', undefined, 'shop')).toEqual({ creates: 1, updates: 2 });
  });

  it('keeps a remote pipeline in Git: object and commit ids on GET, 409 on a stale blob, 400 HINT for a missing file', async () => {
    await createProject();
    const git = `&storeType=REMOTE&connectorRef=github&repoName=delivery&branch=main&filePath=${encodeURIComponent('.harness/p.yaml')}&commitMsg=first&isNewBranch=false`;
    const created = await call('POST', `/gateway/pipeline/api/pipelines/v2?${scope}${git}`, { body: stringify(pipelineDoc('p', 'shop')), type: 'application/yaml' });
    expect(created.json.data).toMatchObject({ identifier: 'p', governanceMetadata: { deny: false } });
    expect(emulator.commits).toEqual([expect.objectContaining({ repoName: 'delivery', branch: 'main', filePath: '.harness/p.yaml', message: 'first' })]);
    const read = await call('GET', `/gateway/pipeline/api/pipelines/p?${scope}&branch=main`);
    expect(read.json.data.storeType).toBe('REMOTE');
    const { objectId, commitId } = read.json.data.gitDetails;
    expect(objectId).toMatch(/^[0-9a-f]{40}$/);
    expect(commitId).toMatch(/^[0-9a-f]{40}$/);
    const update = (last: string) =>
      call('PUT', `/gateway/pipeline/api/pipelines/v2/p?${scope}&branch=main&filePath=${encodeURIComponent('.harness/p.yaml')}&commitMsg=next&connectorRef=github&lastObjectId=${last}&lastCommitId=${commitId}`, {
        body: stringify(pipelineDoc('p', 'shop', 'echo two')),
        type: 'application/yaml',
      });
    expect((await update(objectId)).status).toBe(200);
    const stale = await update(objectId);
    expect([stale.status, stale.json.code]).toEqual([409, 'HINT']);
    expect(stale.json.responseMessages.map((m: { code: string }) => m.code)).toEqual(['HINT', 'EXPLANATION', 'SCM_CONFLICT_ERROR_V2']);
    expect(emulator.violations).toEqual([]);
    // A blind update (no lastObjectId) and an update through the inline path break the contract.
    await call('PUT', `/gateway/pipeline/api/pipelines/v2/p?${scope}&branch=main&commitMsg=x`, { body: stringify(pipelineDoc('p', 'shop')), type: 'application/yaml' });
    await call('PUT', `/gateway/pipeline/api/pipelines/p?${scope}`, { body: stringify(pipelineDoc('p', 'shop')), type: 'application/yaml' });
    expect(emulator.violations).toHaveLength(2);
    emulator.violations.length = 0;
    emulator.deleteGitFile('default', 'shop', 'p');
    const gone = await call('GET', `/gateway/pipeline/api/pipelines/p?${scope}&branch=main`);
    expect([gone.status, gone.json.code]).toEqual([400, 'HINT']);
    expect(gone.json.message).toContain('Please check the requested file path');
  });

  it('answers 200 for a stored pipeline that no longer validates', async () => {
    await createProject();
    emulator.seed({ kind: 'pipeline', org: 'default', project: 'shop', identifier: 'broken', body: {}, raw: 'pipeline:\n  identifier: broken\n  stages: [', invalid: true });
    const read = await call('GET', `/gateway/pipeline/api/pipelines/broken?${scope}`);
    expect(read.status).toBe(200);
    expect(read.json.data.entityValidityDetails.valid).toBe(false);
  });

  it('throttles at the edge with an HTML 429 and no Retry-After when asked to', async () => {
    await withEmulator({ rateLimit: { limit: 1, windowMs: 60_000, edge: true } }, async (on) => {
      await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { on });
      const limited = await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { on });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('content-type')).toContain('text/html');
      expect(limited.headers.get('retry-after')).toBeNull();
      expect(limited.json).toBeUndefined();
    });
  });
});
