import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ACCOUNT_ID, ADMIN_KEY, READER_KEY, ROTATED_KEY, startEmulator, type Emulator } from './support/emulator.js';
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

const call = async (method: string, path: string, { body, type, key = ADMIN_KEY }: { body?: string; type?: string; key?: string | null } = {}) => {
  const headers: Record<string, string> = {};
  if (key !== null) headers['x-api-key'] = key;
  if (type) headers['content-type'] = type;
  const response = await fetch(`${emulator.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, headers: response.headers };
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
