import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  ACCOUNT_ID,
  ADMIN_KEY,
  READER_KEY,
  ROTATED_KEY,
  startEmulator,
  type Emulator,
  type EmulatorOptions,
} from './support/emulator.js';
import {
  connectorDoc,
  environmentDoc,
  infrastructureDoc,
  inputSetDoc,
  overlayInputSetDoc,
  pipelineDoc,
  projectDoc,
  serviceDoc,
  templateDoc,
  templatedPipelineDoc,
  triggerDoc,
  type Doc,
} from './support/emulator-output.js';
import { seedDocument } from './support/emulator-seed.js';

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
  {
    body,
    type,
    key = ADMIN_KEY,
    on = emulator,
    headers: extra = {},
  }: { body?: string; type?: string; key?: string | null; on?: Emulator; headers?: Record<string, string> } = {},
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
const createProject = (doc = projectDoc('shop'), type = 'application/yaml') =>
  call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, { body: stringify(doc), type });

describe('platform emulator', () => {
  it('answers with the envelope, fills in modules and delegateSelectors, and serves pipelines as YAML text', async () => {
    const created = await createProject();
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      status: 'SUCCESS',
      metaData: null,
      correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(created.json.data.project.modules).toContain('CD');
    expect(typeof created.json.data.createdAt).toBe('number');
    const connector = await call('POST', `/gateway/ng/api/connectors?${q}`, {
      body: stringify(connectorDoc('hub', 'shop')),
      type: 'text/yaml',
    });
    expect(connector.json.data.connector.spec.delegateSelectors).toEqual([]);
    expect(connector.json.data.entityValidityDetails).toEqual({ valid: true, invalidYaml: null });
    const pipeline = await call(
      'POST',
      `/gateway/pipeline/api/pipelines/v2?${q}&orgIdentifier=default&projectIdentifier=shop`,
      { body: stringify(pipelineDoc('deploy', 'shop')), type: 'application/yaml' },
    );
    expect(pipeline.json.data).toMatchObject({ identifier: 'deploy' });
    const read = await call(
      'GET',
      `/gateway/pipeline/api/pipelines/deploy?${q}&orgIdentifier=default&projectIdentifier=shop`,
    );
    expect(typeof read.json.data.yamlPipeline).toBe('string');
    expect(emulator.violations).toEqual([]);
    expect(emulator.writes('project', 'default', undefined, 'shop')).toEqual({ creates: 1, updates: 0 });
  });

  it('says "exists" and "not there" the ways the platform does', async () => {
    await createProject();
    expect((await createProject()).json).toMatchObject({ code: 'DUPLICATE_FIELD' });
    expect((await call('GET', `/gateway/ng/api/projects/none?${q}&orgIdentifier=default`)).json).toMatchObject({
      code: 'ENTITY_NOT_FOUND',
    });
    const connector = await call(
      'GET',
      `/gateway/ng/api/connectors/none?${q}&orgIdentifier=default&projectIdentifier=shop`,
    );
    expect([connector.status, connector.json.code]).toEqual([400, 'RESOURCE_NOT_FOUND_EXCEPTION']);
    await call('POST', `/gateway/pipeline/api/pipelines/v2?${q}&orgIdentifier=default&projectIdentifier=shop`, {
      body: stringify(pipelineDoc('p', 'shop')),
      type: 'application/yaml',
    });
    const again = await call(
      'POST',
      `/gateway/pipeline/api/pipelines/v2?${q}&orgIdentifier=default&projectIdentifier=shop`,
      { body: stringify(pipelineDoc('p', 'shop')), type: 'application/yaml' },
    );
    expect(again.json).toMatchObject({
      code: 'DUPLICATE_FIELD',
      message: expect.stringContaining('already exists or has been deleted'),
    });
  });

  it.each([
    ['a wrong content type', () => createProject(projectDoc('shop'), 'text/yaml'), 415],
    [
      'an unknown query parameter',
      () => call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default&debug=1`),
      400,
    ],
    [
      'a missing required query parameter',
      () =>
        call('POST', `/gateway/ng/api/projects?${q}`, {
          body: stringify(projectDoc('shop')),
          type: 'application/yaml',
        }),
      400,
    ],
    [
      'a body with the wrong root key',
      () => call('POST', `/gateway/ng/api/connectors?${q}`, { body: stringify(projectDoc('shop')), type: 'text/yaml' }),
      400,
    ],
    [
      'a body that is not YAML',
      () => call('POST', `/gateway/ng/api/connectors?${q}`, { body: 'connector: [', type: 'text/yaml' }),
      400,
    ],
    // The platform's mapper answers Jersey's NotFoundException as 400 (platform-facts-2.md §3, "wrong URL").
    ['an unknown endpoint', () => call('GET', `/gateway/ng/api/project/x?${q}`), 400],
    [
      'a path identifier unlike the body',
      () =>
        call('PUT', `/gateway/ng/api/projects/other?${q}&orgIdentifier=default`, {
          body: stringify(projectDoc('shop')),
          type: 'application/yaml',
        }),
      400,
    ],
  ] as const)('records %s as a contract violation', async (_name, request, status) => {
    expect((await request()).status).toBe(status);
    expect(emulator.violations).toHaveLength(1);
  });

  it('knows keys and roles: 401 for an unknown or missing key, 403 for a read-only key that writes', async () => {
    expect((await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key: 'nope' })).status).toBe(
      401,
    );
    expect((await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key: null })).status).toBe(
      401,
    );
    expect(
      (await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key: READER_KEY })).status,
    ).toBe(404);
    const write = await call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, {
      body: stringify(projectDoc('shop')),
      type: 'application/yaml',
      key: READER_KEY,
    });
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
    expect(revoked.json).toMatchObject({
      code: 'INVALID_CREDENTIAL',
      correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // Revoked for good, writes included; the new key holds the old one's role and other keys are untouched.
    expect((await createProject(projectDoc('shop'))).status).toBe(401);
    expect(emulator.totalWrites()).toBe(0);
    const write = await call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, {
      body: stringify(projectDoc('shop')),
      type: 'application/yaml',
      key: ROTATED_KEY,
    });
    expect(write.status).toBe(200);
    expect((await read(READER_KEY)).status).toBe(404);
  });

  it('limits the rate per key, with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push((await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`)).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const limited = await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`);
    expect(limited.headers.get('retry-after')).toBe('3');
    // Another key has its own window.
    expect(
      (await call('GET', `/gateway/ng/api/projects/x?${q}&orgIdentifier=default`, { key: READER_KEY })).status,
    ).toBe(404);
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
  const seedProject = (on: Emulator) =>
    call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, {
      body: stringify(projectDoc('shop')),
      type: 'application/yaml',
      on,
    });

  it.each([
    ['404 ENTITY_NOT_FOUND', 404, 'ERROR'],
    ['404 RESOURCE_NOT_FOUND', 404, 'ERROR'],
    ['404 RESOURCE_NOT_FOUND_EXCEPTION', 404, 'FAILURE'],
    ['400 RESOURCE_NOT_FOUND_EXCEPTION', 400, 'FAILURE'],
    ['400 INVALID_REQUEST', 400, 'ERROR'],
  ] as const)('answers a missing resource with %s when configured, for every kind', async (form, status, shape) => {
    await withEmulator({ notFound: { project: form, connector: form, pipeline: form } }, async (on) => {
      for (const path of [
        `/gateway/ng/api/projects/none?${q}&orgIdentifier=default`,
        `/gateway/ng/api/connectors/none?${scope}`,
        `/gateway/pipeline/api/pipelines/none?${scope}`,
      ]) {
        const answer = await call('GET', path, { on });
        expect([answer.status, answer.json.status, answer.json.code]).toEqual([status, shape, form.split(' ')[1]]);
        expect(answer.json.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });

  it("answers updates of a missing id with 400 INVALID_REQUEST, in each service's words", async () => {
    const project = await call('PUT', `/gateway/ng/api/projects/shop?${q}&orgIdentifier=default`, {
      body: stringify(projectDoc('shop')),
      type: 'application/yaml',
    });
    expect([project.status, project.json.code, project.json.message]).toEqual([
      400,
      'INVALID_REQUEST',
      'Project with identifier [shop] and orgIdentifier [default] not found',
    ]);
    await createProject();
    const connector = await call('PUT', `/gateway/ng/api/connectors?${q}`, {
      body: stringify(connectorDoc('hub', 'shop')),
      type: 'text/yaml',
    });
    expect(connector.json.message).toBe('No connector exists with the  Identifier hub');
  });

  it('denies a configured write with 200 SUCCESS, governanceMetadata.deny and no entity, and stores nothing', async () => {
    await withEmulator(
      {
        deny: [
          {
            kind: 'pipeline',
            identifier: 'p',
            policySet: 'Prod approvals',
            message: 'a Deployment stage needs an approval',
          },
          { kind: 'connector', identifier: 'hub', message: 'no public registries' },
        ],
      },
      async (on) => {
        await seedProject(on);
        const pipeline = await call('POST', `/gateway/pipeline/api/pipelines/v2?${scope}`, {
          body: stringify(pipelineDoc('p', 'shop')),
          type: 'application/yaml',
          on,
        });
        expect([pipeline.status, pipeline.json.status]).toEqual([200, 'SUCCESS']);
        expect(pipeline.json.data.identifier).toBeUndefined();
        expect(pipeline.json.data.governanceMetadata).toMatchObject({
          deny: true,
          details: [
            {
              policySetName: 'Prod approvals',
              policyMetadata: [{ denyMessages: ['a Deployment stage needs an approval'] }],
            },
          ],
        });
        const connector = await call('POST', `/gateway/ng/api/connectors?${q}`, {
          body: stringify(connectorDoc('hub', 'shop')),
          type: 'text/yaml',
          on,
        });
        expect(connector.json.data).toMatchObject({ connector: null, governanceMetadata: { deny: true } });
        expect(on.resource('pipeline', 'default', 'shop', 'p')).toBeUndefined();
        expect(on.resource('connector', 'default', 'shop', 'hub')).toBeUndefined();
        // Others pass.
        expect(
          (
            await call('POST', `/gateway/pipeline/api/pipelines/v2?${scope}`, {
              body: stringify(pipelineDoc('q', 'shop')),
              type: 'application/yaml',
              on,
            })
          ).json.data,
        ).toMatchObject({ identifier: 'q' });
      },
    );
  });

  it('refuses creates past a licence limit with 400 INVALID_REQUEST', async () => {
    await withEmulator({ limits: { connector: 1 } }, async (on) => {
      await seedProject(on);
      expect(
        (
          await call('POST', `/gateway/ng/api/connectors?${q}`, {
            body: stringify(connectorDoc('a', 'shop')),
            type: 'text/yaml',
            on,
          })
        ).status,
      ).toBe(200);
      const second = await call('POST', `/gateway/ng/api/connectors?${q}`, {
        body: stringify(connectorDoc('b', 'shop')),
        type: 'text/yaml',
        on,
      });
      expect([second.status, second.json.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(second.json.message).toMatch(/limit/);
    });
  });

  it("sends a project's version as ETag and refuses a stale If-Match with 400 OPTIMISTIC_LOCKING_EXCEPTION", async () => {
    await createProject();
    const read = await call('GET', `/gateway/ng/api/projects/shop?${q}&orgIdentifier=default`);
    expect(read.headers.get('etag')).toBe('W/"1"');
    const put = (ifMatch: string) =>
      call('PUT', `/gateway/ng/api/projects/shop?${q}&orgIdentifier=default`, {
        body: stringify(projectDoc('shop', { color: '#111111' })),
        type: 'application/yaml',
        headers: { 'if-match': ifMatch },
      });
    expect((await put('1')).status).toBe(200);
    const stale = await put('1');
    expect([stale.status, stale.json.status, stale.json.code]).toEqual([
      400,
      'FAILURE',
      'OPTIMISTIC_LOCKING_EXCEPTION',
    ]);
    expect((await put('W/"2"')).status).toBe(200);
    expect(emulator.writes('project', 'default', undefined, 'shop')).toEqual({ creates: 1, updates: 2 });
  });

  it('keeps a remote pipeline in Git: object and commit ids on GET, 409 on a stale blob, 400 HINT for a missing file', async () => {
    await createProject();
    const git = `&storeType=REMOTE&connectorRef=github&repoName=delivery&branch=main&filePath=${encodeURIComponent('.harness/p.yaml')}&commitMsg=first&isNewBranch=false`;
    const created = await call('POST', `/gateway/pipeline/api/pipelines/v2?${scope}${git}`, {
      body: stringify(pipelineDoc('p', 'shop')),
      type: 'application/yaml',
    });
    expect(created.json.data).toMatchObject({ identifier: 'p', governanceMetadata: { deny: false } });
    expect(emulator.commits).toEqual([
      expect.objectContaining({ repoName: 'delivery', branch: 'main', filePath: '.harness/p.yaml', message: 'first' }),
    ]);
    const read = await call('GET', `/gateway/pipeline/api/pipelines/p?${scope}&branch=main`);
    expect(read.json.data.storeType).toBe('REMOTE');
    const { objectId, commitId } = read.json.data.gitDetails;
    expect(objectId).toMatch(/^[0-9a-f]{40}$/);
    expect(commitId).toMatch(/^[0-9a-f]{40}$/);
    const update = (last: string) =>
      call(
        'PUT',
        `/gateway/pipeline/api/pipelines/v2/p?${scope}&branch=main&filePath=${encodeURIComponent('.harness/p.yaml')}&commitMsg=next&connectorRef=github&lastObjectId=${last}&lastCommitId=${commitId}`,
        {
          body: stringify(pipelineDoc('p', 'shop', 'echo two')),
          type: 'application/yaml',
        },
      );
    expect((await update(objectId)).status).toBe(200);
    const stale = await update(objectId);
    expect([stale.status, stale.json.code]).toEqual([409, 'HINT']);
    expect(stale.json.responseMessages.map((m: { code: string }) => m.code)).toEqual([
      'HINT',
      'EXPLANATION',
      'SCM_CONFLICT_ERROR_V2',
    ]);
    expect(emulator.violations).toEqual([]);
    // A blind update (no lastObjectId) and an update through the inline path break the contract.
    await call('PUT', `/gateway/pipeline/api/pipelines/v2/p?${scope}&branch=main&commitMsg=x`, {
      body: stringify(pipelineDoc('p', 'shop')),
      type: 'application/yaml',
    });
    await call('PUT', `/gateway/pipeline/api/pipelines/p?${scope}`, {
      body: stringify(pipelineDoc('p', 'shop')),
      type: 'application/yaml',
    });
    expect(emulator.violations).toHaveLength(2);
    emulator.violations.length = 0;
    emulator.deleteGitFile('default', 'shop', 'p');
    const gone = await call('GET', `/gateway/pipeline/api/pipelines/p?${scope}&branch=main`);
    expect([gone.status, gone.json.code]).toEqual([400, 'HINT']);
    expect(gone.json.message).toContain('Please check the requested file path');
  });

  it("updates a Git-stored service in its file only when the update says storeType=REMOTE; without it only the platform's copy changes", async () => {
    await createProject();
    seedDocument(emulator, serviceDoc('api', 'shop'), {
      git: { connectorRef: 'github', repoName: 'delivery', branch: 'config', filePath: '.harness/api.yaml' },
    });
    const read = await call('GET', `/gateway/ng/api/servicesV2/api?${scope}&branch=config`);
    const { objectId, commitId, branch } = read.json.data.service.entityGitDetails;
    expect(branch).toBe('config');
    const body = (name: string) =>
      JSON.stringify({
        identifier: 'api',
        orgIdentifier: 'default',
        projectIdentifier: 'shop',
        name,
        yaml: stringify({ service: { ...serviceDoc('api', 'shop').service, name } }),
      });
    const put = (name: string, query: string) =>
      call('PUT', `/gateway/ng/api/servicesV2?${q}${query}`, { body: body(name), type: 'application/json' });
    const listed = async () =>
      (
        (await call('GET', `/gateway/ng/api/servicesV2?${scope}&page=0&size=10`)).json.data.content as Array<{
          service: { identifier: string; yaml: string };
        }>
      ).find((i) => i.service.identifier === 'api')!.service.yaml;
    const file = async () =>
      (await call('GET', `/gateway/ng/api/servicesV2/api?${scope}&branch=config`)).json.data.service.yaml as string;
    // Inline: 200, the copy the list serves changes, the file (and so the GET) stays, no commit.
    expect((await put('inline edit', '')).status).toBe(200);
    expect(await listed()).toContain('inline edit');
    expect(await file()).not.toContain('inline edit');
    expect(emulator.commits).toEqual([]);
    // In Git: the branch is required, a stale blob is a 409, the right one commits the file on that branch.
    const noBranch = await put('in git', `&storeType=REMOTE&commitMsg=x&lastObjectId=${objectId}`);
    expect([noBranch.status, noBranch.json.message]).toEqual([400, 'No branch provided for updating the file.']);
    expect(
      (await put('in git', `&storeType=REMOTE&branch=config&commitMsg=x&lastObjectId=0000&lastCommitId=${commitId}`))
        .status,
    ).toBe(409);
    expect(
      (
        await put(
          'in git',
          `&storeType=REMOTE&branch=config&commitMsg=x&lastObjectId=${objectId}&lastCommitId=${commitId}`,
        )
      ).status,
    ).toBe(200);
    expect(emulator.commits).toEqual([
      expect.objectContaining({ repoName: 'delivery', branch: 'config', filePath: '.harness/api.yaml', message: 'x' }),
    ]);
    expect(await file()).toContain('in git');
    expect(await listed()).toContain('inline edit');
    expect(emulator.violations).toEqual([]);
  });

  it('updates a Git-stored template version in its file, naming the blob it replaces; makes it stable only on a branch', async () => {
    await createProject();
    seedDocument(emulator, templateDoc('checks', 'shop', 'v1'), {
      git: { connectorRef: 'github', repoName: 'delivery', branch: 'config', filePath: '.harness/checks.yaml' },
    });
    const read = await call('GET', `/gateway/template/api/templates/checks?${scope}&versionLabel=v1&branch=config`);
    expect(read.json.data.storeType).toBe('REMOTE');
    const { objectId, commitId, branch } = read.json.data.gitDetails;
    expect(branch).toBe('config');
    expect(
      (await call('GET', `/gateway/template/api/templates/checks?${scope}&versionLabel=v1&branch=other`)).status,
    ).toBe(400);
    const body = stringify(templateDoc('checks', 'shop', 'v1', 'make test lint'));
    const put = (query: string) =>
      call('PUT', `/gateway/template/api/templates/update/checks/v1?${scope}${query}`, {
        body,
        type: 'application/yaml',
      });
    const git = '&branch=config&connectorRef=github&filePath=.harness/checks.yaml&isNewBranch=false&commitMsg=x';
    expect((await put(`${git}&lastObjectId=0000&lastCommitId=${commitId}`)).status).toBe(409);
    expect(emulator.commits).toEqual([]);
    expect((await put(`${git}&lastObjectId=${objectId}&lastCommitId=${commitId}`)).status).toBe(200);
    expect(emulator.commits).toEqual([
      expect.objectContaining({
        repoName: 'delivery',
        branch: 'config',
        filePath: '.harness/checks.yaml',
        message: 'x',
      }),
    ]);
    expect(emulator.violations).toEqual([]);
    // An update without lastObjectId would overwrite the file blindly: a violation.
    expect((await put(git)).status).toBe(400);
    const stable = (query: string) =>
      call('PUT', `/gateway/template/api/templates/updateStableTemplate/checks/v1?${scope}${query}`);
    const noBranch = await stable('');
    expect([noBranch.status, noBranch.json.message]).toEqual([400, 'No branch provided for modifying the file.']);
    expect((await stable('&branch=config')).status).toBe(200);
  });

  it('answers 200 for a stored pipeline that no longer validates', async () => {
    await createProject();
    emulator.seed({
      kind: 'pipeline',
      org: 'default',
      project: 'shop',
      identifier: 'broken',
      body: {},
      raw: 'pipeline:\n  identifier: broken\n  stages: [',
      invalid: true,
    });
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

describe('platform emulator: services, environments, infrastructures, templates, input sets and triggers (platform-facts-2.md §6)', () => {
  let em: Emulator;
  beforeEach(async () => {
    em = await startEmulator();
    await call('POST', `/gateway/ng/api/projects?${q}&orgIdentifier=default`, {
      body: stringify(projectDoc('shop')),
      type: 'application/yaml',
      on: em,
    });
    await call('POST', `/gateway/pipeline/api/pipelines/v2?${scope}`, {
      body: stringify(pipelineDoc('deploy', 'shop')),
      type: 'application/yaml',
      on: em,
    });
  });
  afterEach(() => em.stop());

  const scope = `${q}&orgIdentifier=default&projectIdentifier=shop`;
  const on = (method: string, path: string, options: { body?: string; type?: string } = {}) =>
    call(method, path, { ...options, on: em });
  /** Services, environments and infrastructures: JSON naming the entity, with the YAML text in `yaml`. */
  const jsonBody = (doc: Doc, fields: readonly string[]) => {
    const body = Object.values(doc)[0]!;
    return JSON.stringify({
      ...Object.fromEntries(fields.filter((f) => body[f] !== undefined).map((f) => [f, body[f]])),
      yaml: stringify(doc),
    });
  };
  const NG = ['identifier', 'orgIdentifier', 'projectIdentifier', 'name', 'description', 'tags'];

  interface Case {
    readonly kind:
      'service' | 'environment' | 'infrastructure' | 'template' | 'inputSet' | 'overlayInputSet' | 'trigger';
    /** What has to be there first. */
    readonly before?: () => Promise<unknown>;
    readonly doc: (variant: number) => Doc;
    readonly create: string;
    readonly update: string;
    readonly read: string;
    readonly missing: string;
    readonly type: string;
    readonly body: (doc: Doc) => string;
    readonly yamlOf: (data: any) => string;
    readonly entity: (data: any) => unknown;
    readonly notFound: readonly [number, string, string];
    readonly at?: { parent?: string; versionLabel?: string };
  }
  const cases: Case[] = [
    {
      kind: 'service',
      doc: (v) => serviceDoc('web', 'shop', String(v)),
      create: `/gateway/ng/api/servicesV2?${q}`,
      update: `/gateway/ng/api/servicesV2?${q}`,
      read: `/gateway/ng/api/servicesV2/web?${scope}`,
      missing: `/gateway/ng/api/servicesV2/none?${scope}`,
      type: 'application/json',
      body: (doc) => jsonBody(doc, NG),
      yamlOf: (data) => data.service.yaml,
      entity: (data) => data.service.identifier,
      notFound: [400, 'FAILURE', 'RESOURCE_NOT_FOUND_EXCEPTION'],
    },
    {
      kind: 'environment',
      doc: (v) => environmentDoc('qa', 'shop', v === 1 ? 'PreProduction' : 'Production'),
      create: `/gateway/ng/api/environmentsV2?${q}`,
      update: `/gateway/ng/api/environmentsV2?${q}`,
      read: `/gateway/ng/api/environmentsV2/qa?${scope}`,
      missing: `/gateway/ng/api/environmentsV2/none?${scope}`,
      type: 'application/json',
      body: (doc) => jsonBody(doc, [...NG, 'type']),
      yamlOf: (data) => data.environment.yaml,
      entity: (data) => data.environment.identifier,
      notFound: [400, 'FAILURE', 'RESOURCE_NOT_FOUND_EXCEPTION'],
    },
    {
      kind: 'infrastructure',
      before: () =>
        on('POST', `/gateway/ng/api/environmentsV2?${q}`, {
          body: jsonBody(environmentDoc('qa', 'shop'), [...NG, 'type']),
          type: 'application/json',
        }),
      doc: (v) => infrastructureDoc('k8s', 'shop', 'qa', `ns${v}`),
      create: `/gateway/ng/api/infrastructures?${q}`,
      update: `/gateway/ng/api/infrastructures?${q}`,
      read: `/gateway/ng/api/infrastructures/k8s?${scope}&environmentIdentifier=qa`,
      missing: `/gateway/ng/api/infrastructures/k8s?${scope}&environmentIdentifier=prod`,
      type: 'application/json',
      body: (doc) => jsonBody(doc, [...NG, 'environmentRef', 'type']),
      yamlOf: (data) => data.infrastructure.yaml,
      entity: (data) => data.infrastructure.identifier,
      notFound: [400, 'FAILURE', 'RESOURCE_NOT_FOUND_EXCEPTION'],
      at: { parent: 'qa' },
    },
    {
      kind: 'template',
      doc: (v) => templateDoc('checks', 'shop', 'v1', `make test ${v}`),
      create: `/gateway/template/api/templates?${scope}`,
      update: `/gateway/template/api/templates/update/checks/v1?${scope}`,
      read: `/gateway/template/api/templates/checks?${scope}&versionLabel=v1`,
      missing: `/gateway/template/api/templates/checks?${scope}&versionLabel=v9`,
      type: 'application/yaml',
      body: stringify,
      yamlOf: (data) => data.yaml,
      entity: (data) => data.templateResponseDTO.identifier,
      notFound: [400, 'FAILURE', 'RESOURCE_NOT_FOUND_EXCEPTION'],
      at: { versionLabel: 'v1' },
    },
    {
      kind: 'inputSet',
      doc: (v) => inputSetDoc('nightly', 'shop', 'deploy', `eu${v}`),
      create: `/gateway/pipeline/api/inputSets?${scope}&pipelineIdentifier=deploy`,
      update: `/gateway/pipeline/api/inputSets/nightly?${scope}&pipelineIdentifier=deploy`,
      read: `/gateway/pipeline/api/inputSets/nightly?${scope}&pipelineIdentifier=deploy`,
      missing: `/gateway/pipeline/api/inputSets/none?${scope}&pipelineIdentifier=deploy`,
      type: 'application/yaml',
      body: stringify,
      yamlOf: (data) => data.inputSetYaml,
      entity: (data) => data.identifier,
      notFound: [400, 'ERROR', 'INVALID_REQUEST'],
      at: { parent: 'deploy' },
    },
    {
      kind: 'overlayInputSet',
      before: () =>
        on('POST', `/gateway/pipeline/api/inputSets?${scope}&pipelineIdentifier=deploy`, {
          body: stringify(inputSetDoc('nightly', 'shop', 'deploy')),
          type: 'application/yaml',
        }),
      doc: (v) => overlayInputSetDoc('all', 'shop', 'deploy', v === 1 ? ['nightly'] : ['nightly', 'nightly']),
      create: `/gateway/pipeline/api/inputSets/overlay?${scope}&pipelineIdentifier=deploy`,
      update: `/gateway/pipeline/api/inputSets/overlay/all?${scope}&pipelineIdentifier=deploy`,
      read: `/gateway/pipeline/api/inputSets/overlay/all?${scope}&pipelineIdentifier=deploy`,
      missing: `/gateway/pipeline/api/inputSets/overlay/none?${scope}&pipelineIdentifier=deploy`,
      type: 'application/yaml',
      body: stringify,
      yamlOf: (data) => data.overlayInputSetYaml,
      entity: (data) => data.identifier,
      notFound: [400, 'ERROR', 'INVALID_REQUEST'],
      at: { parent: 'deploy' },
    },
    {
      kind: 'trigger',
      doc: (v) => triggerDoc('nightly', 'shop', 'deploy', `0 ${v} * * *`),
      create: `/gateway/pipeline/api/triggers?${scope}&targetIdentifier=deploy`,
      update: `/gateway/pipeline/api/triggers/nightly?${scope}&targetIdentifier=deploy`,
      read: `/gateway/pipeline/api/triggers/nightly?${scope}&targetIdentifier=deploy`,
      missing: `/gateway/pipeline/api/triggers/none?${scope}&targetIdentifier=deploy`,
      type: 'application/yaml',
      body: stringify,
      yamlOf: (data) => data.yaml,
      entity: (data) => data.identifier,
      notFound: [404, 'ERROR', 'ENTITY_NOT_FOUND'],
      at: { parent: 'deploy' },
    },
  ];

  it.each(cases)(
    '$kind: creates, says it exists, updates, serves the YAML as sent, and answers a missing one in its form',
    async (c) => {
      await c.before?.();
      const created = await on('POST', c.create, { body: c.body(c.doc(1)), type: c.type });
      expect([created.status, created.json.status]).toEqual([200, 'SUCCESS']);
      expect(c.entity(created.json.data)).toBe(Object.values(c.doc(1))[0]!.identifier);
      const again = await on('POST', c.create, { body: c.body(c.doc(1)), type: c.type });
      expect(again.status).toBe(400);
      expect(again.json.message).toMatch(/already (exists|present)/);
      expect((await on('PUT', c.update, { body: c.body(c.doc(2)), type: c.type })).status).toBe(200);
      const read = await on('GET', c.read);
      expect(read.status).toBe(200);
      expect(c.yamlOf(read.json.data)).toBe(stringify(c.doc(2)));
      const missing = await on('GET', c.missing);
      expect([missing.status, missing.json.status, missing.json.code]).toEqual(c.notFound);
      const [org, project, identifier] = ['default', 'shop', Object.values(c.doc(1))[0]!.identifier as string];
      expect(em.writes(c.kind, org, project, identifier, c.at)).toEqual({ creates: 1, updates: 1 });
      expect(em.violations).toEqual([]);
    },
  );

  it.each(cases)(
    '$kind: an update of a missing one is 400 INVALID_REQUEST, and a write in the wrong content type breaks the contract',
    async (c) => {
      await c.before?.();
      const update = await on('PUT', c.update, { body: c.body(c.doc(1)), type: c.type });
      expect([update.status, update.json.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(em.violations).toEqual([]);
      await on('POST', c.create, {
        body: c.body(c.doc(1)),
        type: c.type === 'application/json' ? 'application/yaml' : 'application/json',
      });
      expect(em.violations).toHaveLength(1);
    },
  );

  it.each([
    [
      'a JSON body whose identifier differs from its YAML',
      () =>
        on('POST', `/gateway/ng/api/servicesV2?${q}`, {
          body: JSON.stringify({
            identifier: 'api',
            orgIdentifier: 'default',
            projectIdentifier: 'shop',
            name: 'Service web',
            yaml: stringify(serviceDoc('web', 'shop')),
          }),
          type: 'application/json',
        }),
    ],
    [
      'a JSON body without the scope its YAML has',
      () =>
        on('POST', `/gateway/ng/api/servicesV2?${q}`, {
          body: JSON.stringify({ identifier: 'web', name: 'Service web', yaml: stringify(serviceDoc('web', 'shop')) }),
          type: 'application/json',
        }),
    ],
    [
      'a service sent as raw YAML',
      () =>
        on('POST', `/gateway/ng/api/servicesV2?${q}`, {
          body: stringify(serviceDoc('web', 'shop')),
          type: 'application/json',
        }),
    ],
    [
      'an input set whose pipelineIdentifier differs from its YAML',
      () =>
        on('POST', `/gateway/pipeline/api/inputSets?${scope}&pipelineIdentifier=other`, {
          body: stringify(inputSetDoc('n', 'shop', 'deploy')),
          type: 'application/yaml',
        }),
    ],
    [
      'a trigger without targetIdentifier',
      () =>
        on('POST', `/gateway/pipeline/api/triggers?${scope}`, {
          body: stringify(triggerDoc('n', 'shop', 'deploy')),
          type: 'application/yaml',
        }),
    ],
    [
      'an infrastructure read without environmentIdentifier',
      () => on('GET', `/gateway/ng/api/infrastructures/k8s?${scope}`),
    ],
    [
      'a template update whose path names another version',
      () =>
        on('PUT', `/gateway/template/api/templates/update/checks/v2?${scope}`, {
          body: stringify(templateDoc('checks', 'shop', 'v1')),
          type: 'application/yaml',
        }),
    ],
    [
      'a template without the scope of its YAML in the query',
      () =>
        on('POST', `/gateway/template/api/templates?${q}`, {
          body: stringify(templateDoc('checks', 'shop', 'v1')),
          type: 'application/yaml',
        }),
    ],
  ] as const)('records %s as a contract violation', async (_name, request) => {
    expect((await request()).status).toBe(400);
    expect(em.violations).toHaveLength(1);
  });

  it('refuses what refers to something missing (400, not a violation): an infrastructure before its environment, a pipeline before its template, an input set or trigger before its pipeline, an overlay before its input sets', async () => {
    const refused = async (answer: Promise<{ status: number; json: any }>, words: RegExp) => {
      const { status, json } = await answer;
      expect([status, json.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(json.message).toMatch(words);
    };
    await refused(
      on('POST', `/gateway/ng/api/infrastructures?${q}`, {
        body: jsonBody(infrastructureDoc('k8s', 'shop', 'qa'), [...NG, 'environmentRef', 'type']),
        type: 'application/json',
      }),
      /environment \[qa\]/,
    );
    await refused(
      on('POST', `/gateway/pipeline/api/pipelines/v2?${scope}`, {
        body: stringify(templatedPipelineDoc('ci', 'shop', 'checks', 'v1')),
        type: 'application/yaml',
      }),
      /Template reference \[checks, versionLabel v1\]/,
    );
    await refused(
      on('POST', `/gateway/pipeline/api/inputSets?${scope}&pipelineIdentifier=ci`, {
        body: stringify(inputSetDoc('n', 'shop', 'ci')),
        type: 'application/yaml',
      }),
      /pipeline \[ci\]/,
    );
    await refused(
      on('POST', `/gateway/pipeline/api/triggers?${scope}&targetIdentifier=ci`, {
        body: stringify(triggerDoc('n', 'shop', 'ci')),
        type: 'application/yaml',
      }),
      /pipeline \[ci\]/,
    );
    await refused(
      on('POST', `/gateway/pipeline/api/inputSets/overlay?${scope}&pipelineIdentifier=deploy`, {
        body: stringify(overlayInputSetDoc('all', 'shop', 'deploy', ['nightly'])),
        type: 'application/yaml',
      }),
      /input set \[nightly\]/,
    );
    // In order, each is accepted.
    expect(
      (
        await on('POST', `/gateway/template/api/templates?${scope}`, {
          body: stringify(templateDoc('checks', 'shop', 'v1')),
          type: 'application/yaml',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await on('POST', `/gateway/pipeline/api/pipelines/v2?${scope}`, {
          body: stringify(templatedPipelineDoc('ci', 'shop', 'checks', 'v1')),
          type: 'application/yaml',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await on('POST', `/gateway/pipeline/api/inputSets?${scope}&pipelineIdentifier=ci`, {
          body: stringify(inputSetDoc('n', 'shop', 'ci')),
          type: 'application/yaml',
        })
      ).status,
    ).toBe(200);
    expect(em.totalWrites()).toBe(5);
    expect(em.violations).toEqual([]);
  });

  it('keeps template versions apart: the first is stable, setDefaultTemplate or updateStableTemplate moves it, a GET without versionLabel answers the stable one', async () => {
    const create = (version: string, extra = '') =>
      on('POST', `/gateway/template/api/templates?${scope}${extra}`, {
        body: stringify(templateDoc('checks', 'shop', version, version)),
        type: 'application/yaml',
      });
    const stable = async () =>
      (await on('GET', `/gateway/template/api/templates/checks?${scope}`)).json.data.versionLabel;
    await create('v1');
    await create('v2');
    expect(await stable()).toBe('v1');
    await create('v3', '&setDefaultTemplate=true');
    expect(await stable()).toBe('v3');
    expect((await on('PUT', `/gateway/template/api/templates/updateStableTemplate/checks/v2?${scope}`)).status).toBe(
      200,
    );
    expect(await stable()).toBe('v2');
    const v1 = await on('GET', `/gateway/template/api/templates/checks?${scope}&versionLabel=v1`);
    expect(v1.json.data).toMatchObject({
      versionLabel: 'v1',
      stableTemplate: false,
      yaml: stringify(templateDoc('checks', 'shop', 'v1', 'v1')),
    });
    expect(em.violations).toEqual([]);
  });

  it('denies a service, an environment, an infrastructure, a template and an input set with 200 SUCCESS and no entity', async () => {
    const denied = await startEmulator({
      deny: (['service', 'environment', 'infrastructure', 'template', 'inputSet'] as const).map((kind) => ({
        kind,
        identifier: 'x',
        message: 'not allowed',
      })),
    });
    try {
      const send = (method: string, path: string, body: string, type: string) =>
        call(method, path, { body, type, on: denied });
      await send(
        'POST',
        `/gateway/ng/api/projects?${q}&orgIdentifier=default`,
        stringify(projectDoc('shop')),
        'application/yaml',
      );
      await send(
        'POST',
        `/gateway/pipeline/api/pipelines/v2?${scope}`,
        stringify(pipelineDoc('deploy', 'shop')),
        'application/yaml',
      );
      await send(
        'POST',
        `/gateway/ng/api/environmentsV2?${q}`,
        jsonBody(environmentDoc('qa', 'shop'), [...NG, 'type']),
        'application/json',
      );
      const answers = [
        await send(
          'POST',
          `/gateway/ng/api/servicesV2?${q}`,
          jsonBody(serviceDoc('x', 'shop'), NG),
          'application/json',
        ),
        await send(
          'POST',
          `/gateway/ng/api/environmentsV2?${q}`,
          jsonBody(environmentDoc('x', 'shop'), [...NG, 'type']),
          'application/json',
        ),
        await send(
          'POST',
          `/gateway/ng/api/infrastructures?${q}`,
          jsonBody(infrastructureDoc('x', 'shop', 'qa'), [...NG, 'environmentRef', 'type']),
          'application/json',
        ),
        await send(
          'POST',
          `/gateway/template/api/templates?${scope}`,
          stringify(templateDoc('x', 'shop', 'v1')),
          'application/yaml',
        ),
        await send(
          'POST',
          `/gateway/pipeline/api/inputSets?${scope}&pipelineIdentifier=deploy`,
          stringify(inputSetDoc('x', 'shop', 'deploy')),
          'application/yaml',
        ),
      ];
      // The entity's place in `data` is null (or, for input sets, there is no identifier).
      const entities = ['service', 'environment', 'infrastructure', 'templateResponseDTO', 'identifier'];
      answers.forEach((answer, i) => {
        expect([answer.status, answer.json.status, answer.json.data.governanceMetadata.deny]).toEqual([
          200,
          'SUCCESS',
          true,
        ]);
        expect(answer.json.data[entities[i]!] ?? null).toBeNull();
      });
      // Only the project, the pipeline and environment qa were stored.
      expect(denied.totalWrites()).toBe(3);
      expect(denied.violations).toEqual([]);
    } finally {
      await denied.stop();
    }
  });
});
