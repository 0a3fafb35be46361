import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  connectorDoc,
  environmentDoc,
  pipelineDoc,
  projectDoc,
  serviceDoc,
  writeOutputFolder,
} from './support/emulator-output.js';
import { seedDocument } from './support/emulator-seed.js';
import type { NotFoundForm } from './support/emulator-rest.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';

/**
 * publish through the real binary against the emulator answering as the platform does (platform-facts-2.md):
 * policy denials, every not-found form, edge 429s and licence limits, project versions, Git-stored pipelines,
 * drift and the preflight. Whatever happens, nothing is reported as stored that is not.
 */

const session = emulatorsPerTest('pipewright-answers-');
const { emulate, compiled } = session;

type JsonDocument = {
  file: string;
  kind: string;
  identifier: string;
  outcome: string;
  drift?: { path: string }[];
  error?: { message: string; reason?: string; status?: number; code?: string };
};
const report = (stdout: string) =>
  JSON.parse(stdout) as { ok: boolean; counts: Record<string, number>; documents: JsonDocument[] };
const doc = (stdout: string, identifier: string) => report(stdout).documents.find((d) => d.identifier === identifier)!;

const SHOP = [projectDoc('shop'), connectorDoc('hub', 'shop'), pipelineDoc('deploy', 'shop')];

describe('governance (OPA) denials answer 200', () => {
  it('fails a denied document with the policy message and the policy set, exit 1; the others are stored', async () => {
    const em = await emulate({
      deny: [
        {
          kind: 'pipeline',
          identifier: 'deploy',
          policySet: 'Production approvals',
          message: 'a Deployment stage needs a HarnessApproval step first',
        },
        { kind: 'connector', identifier: 'hub', message: 'public registries are not allowed' },
      ],
    });
    const out = await compiled(SHOP);
    const text = await publishWith({ emulator: em, args: [out] });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /^FAILED\s+pipeline\s+default\/shop\/deploy\s.*\n\s+denied by policy: a Deployment stage needs a HarnessApproval step first \(policy set Production approvals\); nothing was stored/m,
    );
    expect(text.stdout).toContain('denied by policy: public registries are not allowed; nothing was stored');
    expect(text.stdout).toMatch(/^total\s+1\s+0\s+0\s+2$/m);
    expect(em.resource('pipeline', 'default', 'shop', 'deploy')).toBeUndefined();
    expect(em.resource('connector', 'default', 'shop', 'hub')).toBeUndefined();
    const json = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(json.code).toBe(1);
    expect(doc(json.stdout, 'deploy')).toMatchObject({
      outcome: 'failed',
      error: { reason: 'denied by policy', status: 200 },
    });
    expect(doc(json.stdout, 'hub').error!.reason).toBe('denied by policy');
    expect(doc(json.stdout, 'shop').outcome).toBe('unchanged');
    // The envelope names each document the platform did not take, as a diagnostic of its own.
    const envelope = JSON.parse(json.stdout) as {
      command: string;
      ok: boolean;
      diagnostics: Array<Record<string, unknown>>;
    };
    expect(envelope).toMatchObject({ command: 'publish', ok: false });
    expect(envelope.diagnostics.map((d) => [d.code, d.severity, d.subject])).toEqual([
      ['publish-failed', 'error', 'connector "hub"'],
      ['publish-failed', 'error', 'pipeline "deploy"'],
    ]);
    expect(envelope.diagnostics[1]!.message).toContain('a Deployment stage needs a HarnessApproval step first');
  });

  it('--dry-run cannot know about policies and says nothing about them', async () => {
    const em = await emulate({ deny: [{ kind: 'pipeline', identifier: 'deploy', message: 'no' }] });
    const result = await publishWith({ emulator: em, args: [await compiled(SHOP), '--dry-run'] });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^would create\s+pipeline\s+default\/shop\/deploy/m);
    expect(result.stdout).not.toMatch(/polic/i);
  });

  it('fails a 200 SUCCESS that carries no entity, describing the answer, never counting it as created', async () => {
    const em = await emulate({ withoutEntity: ['hub'] });
    const result = await publishWith({ emulator: em, args: [await compiled(SHOP), '--json'] });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'hub')).toMatchObject({
      outcome: 'failed',
      error: { reason: 'no entity in the answer' },
    });
    expect(doc(result.stdout, 'hub').error!.message).toContain(
      'the platform answered 200 SUCCESS without the connector (data.connector expected, no data)',
    );
    expect(report(result.stdout).counts).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 1 });
  });
});

describe('"not there" in every form', () => {
  const forms: NotFoundForm[] = [
    '404 ENTITY_NOT_FOUND',
    '404 RESOURCE_NOT_FOUND',
    '404 RESOURCE_NOT_FOUND_EXCEPTION',
    '400 RESOURCE_NOT_FOUND_EXCEPTION',
    '400 INVALID_REQUEST',
  ];
  it.each(forms)('creates every kind when GET answers %s, and finds them there the next time', async (form) => {
    const em = await emulate({ notFound: { project: form, connector: form, pipeline: form } });
    const out = await compiled(SHOP);
    const first = await publishWith({ emulator: em, args: [out] });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^total\s+3\s+0\s+0\s+0$/m);
    const second = await publishWith({ emulator: em, args: [out] });
    expect(second.stdout).toMatch(/^total\s+0\s+0\s+3\s+0$/m);
  });

  it('updates, never re-creates, a stored pipeline that no longer validates (GET 200 with valid: false)', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')], 'first')] });
    em.seed({
      kind: 'pipeline',
      org: 'default',
      project: 'shop',
      identifier: 'deploy',
      body: {},
      raw: 'pipeline:\n  identifier: deploy\n  stages: [',
      invalid: true,
    });
    const result = await publishWith({ emulator: em, args: [await compiled(SHOP)] });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^updated\s+pipeline\s+default\/shop\/deploy\s/m);
    expect(em.writes('pipeline', 'default', 'shop', 'deploy')).toEqual({ creates: 0, updates: 1 });
  });

  it('does not take a 5xx for "not there": the document fails after its retries, nothing is created', async () => {
    const em = await emulate({
      faults: {
        rate: 1,
        kinds: ['error-500-json'],
        match: ({ method, path }) => method === 'GET' && path.includes('/connectors/'),
      },
    });
    const result = await publishWith({
      emulator: em,
      args: [await compiled(SHOP), '--json'],
      env: { PIPEWRIGHT_RETRY_ATTEMPTS: '2' },
    });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'hub')).toMatchObject({ outcome: 'failed', error: { status: 500 } });
    expect(em.writes('connector', 'default', 'shop', 'hub').creates).toBe(0);
  });
});

describe('rate limits and licence limits', () => {
  it("backs off on the edge's HTML 429 without a Retry-After, and never prints the page", async () => {
    const em = await emulate({ rateLimit: { limit: 4, windowMs: 400, edge: true } });
    const docs = [projectDoc('shop'), ...Array.from({ length: 6 }, (_, i) => pipelineDoc(`p${i}`, 'shop'))];
    const result = await publishWith({
      emulator: em,
      args: [await compiled(docs)],
      env: { PIPEWRIGHT_RETRY_BASE_MS: '200', PIPEWRIGHT_RETRY_ATTEMPTS: '8' },
    });
    expect(result.code).toBe(0);
    expect(em.rateLimited).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/^total\s+7\s+0\s+0\s+0$/m);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/<html|Cloud Armor|doctype/i);
  });

  it('does not retry a licence limit (400 INVALID_REQUEST) and says which limit was hit', async () => {
    const em = await emulate({ limits: { connector: 1 } });
    const docs = [projectDoc('shop'), connectorDoc('a', 'shop'), connectorDoc('b', 'shop')];
    const result = await publishWith({ emulator: em, args: [await compiled(docs), '--json', '--concurrency', '1'] });
    expect(result.code).toBe(1);
    const failed = doc(result.stdout, 'b');
    expect(failed).toMatchObject({
      outcome: 'failed',
      error: { reason: 'limit', status: 400, code: 'INVALID_REQUEST' },
    });
    expect(failed.error!.message).toContain('Maximum limit has reached for MULTIPLE_CONNECTORS');
    expect(failed.error!.message).toContain('not retried');
    expect(
      em.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/gateway/ng/api/connectors?')).length,
    ).toBe(2);
  });
});

describe('projects are updated with If-Match', () => {
  const PROJECT: ['project', string, undefined, string] = ['project', 'default', undefined, 'shop'];
  const changedColour = [projectDoc('shop', { color: '#222222' })];
  /** An emulator holding project shop, where someone makes `change` between publish's read and its write. */
  const editedBetweenReadAndWrite = async (change: (body: Record<string, unknown>) => void) => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')], 'first')] });
    // The first read of the next run is the preflight's; the second is the one the update follows.
    em.afterNextRead(...PROJECT, () => em.afterNextRead(...PROJECT, () => em.edit(...PROJECT, change)));
    return em;
  };

  it('sends the version the GET read; on a stale one re-reads once and updates with the new version', async () => {
    const em = await editedBetweenReadAndWrite((b) => (b.description = 'edited in the UI'));
    const result = await publishWith({ emulator: em, args: [await compiled(changedColour)] });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^updated\s+project\s+default\/shop\s/m);
    const puts = em.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.status)).toEqual([400, 200]);
    // The re-read showed the document still differs: the source wins, as for any update.
    expect(em.resource(...PROJECT)!.body).toMatchObject({ color: '#222222', description: '' });
  });

  it('ends unchanged when the re-read finds the platform already holds the document', async () => {
    const em = await editedBetweenReadAndWrite((b) => (b.color = '#222222'));
    const result = await publishWith({ emulator: em, args: [await compiled(changedColour)] });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^unchanged\s+project\s+default\/shop\s/m);
    expect(em.requests.filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([400]);
    expect(em.writes('project', 'default', undefined, 'shop').updates).toBe(0);
  });

  it('reports the conflict when the project changes again before the retry', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')], 'first')] });
    let edits = 0;
    const keepEditing = () =>
      em.afterNextRead('project', 'default', undefined, 'shop', () => {
        em.edit('project', 'default', undefined, 'shop', (b) => (b.description = `edit ${++edits}`));
        keepEditing();
      });
    keepEditing();
    const result = await publishWith({ emulator: em, args: [await compiled(changedColour), '--json'] });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'shop')).toMatchObject({
      outcome: 'failed',
      error: { reason: 'version conflict', code: 'OPTIMISTIC_LOCKING_EXCEPTION' },
    });
    expect(em.requests.filter((r) => r.method === 'PUT')).toHaveLength(2);
    expect(em.resource('project', 'default', undefined, 'shop')!.body.color).toBe('#0063F7');
  });
});

describe('Git-stored (remote) pipelines', () => {
  const GIT = ['--store', 'remote', '--git-connector', 'github', '--repo', 'delivery', '--branch', 'main'];
  const PIPE: ['pipeline', string, string, string] = ['pipeline', 'default', 'shop', 'deploy'];

  it("creates in Git at the platform's layout with a commit naming pipewright and the source, then updates naming the blob it replaces", async () => {
    const em = await emulate();
    const first = await publishWith({ emulator: em, args: [await compiled(SHOP), ...GIT] });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(em.resource(...PIPE)!.git).toMatchObject({
      connectorRef: 'github',
      repoName: 'delivery',
      branch: 'main',
      filePath: '.harness/orgs/default/projects/shop/pipelines/deploy.yaml',
    });
    expect(em.commits).toEqual([
      expect.objectContaining({ message: 'pipewright: publish pipeline deploy from defs/deploy.ts' }),
    ]);
    expect((await publishWith({ emulator: em, args: [await compiled(SHOP), ...GIT] })).stdout).toMatch(
      /^total\s+0\s+0\s+3\s+0$/m,
    );
    const changed = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop', 'echo two')], 'changed'), ...GIT],
    });
    expect(changed.code).toBe(0);
    expect(changed.stdout).toMatch(/^updated\s+pipeline\s+default\/shop\/deploy\s/m);
    expect(em.commits).toHaveLength(2);
    // The emulator refuses an update without lastObjectId, or with a stale one, as a violation or a 409.
    expect(em.requests.filter((r) => r.method === 'PUT').map((r) => r.path.split('?')[0])).toEqual([
      '/gateway/pipeline/api/pipelines/v2/deploy',
    ]);
  });

  it('takes the Git settings from pipewright.config.ts (flags win), with a filePath template', async () => {
    const em = await emulate();
    await writeOutputFolder(join(session.work, 'compiled'), SHOP);
    await writeFile(
      join(session.work, 'pipewright.config.ts'),
      `export default { outDir: 'compiled', store: 'remote', git: { connector: 'gitlab', repo: 'from-config', branch: 'main', filePath: 'ci/{project}/{identifier}.yaml' } };\n`,
    );
    const result = await publishWith({ emulator: em, cwd: session.work, args: ['--repo', 'from-flag'] });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(em.resource(...PIPE)!.git).toMatchObject({
      connectorRef: 'gitlab',
      repoName: 'from-flag',
      filePath: 'ci/shop/deploy.yaml',
    });
  });

  it('reports a 409 when the file changed in Git since it was read, with advice, and does not overwrite it', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled(SHOP), ...GIT] });
    em.afterNextRead(...PIPE, () => em.edit(...PIPE, (b) => (b.description = 'pushed by a colleague')));
    const result = await publishWith({
      emulator: em,
      args: [
        await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop', 'echo two')], 'changed'),
        ...GIT,
        '--json',
      ],
    });
    expect(result.code).toBe(1);
    const failed = doc(result.stdout, 'deploy');
    expect(failed).toMatchObject({ outcome: 'failed', error: { reason: 'git conflict', status: 409 } });
    expect(failed.error!.message).toContain("doesn't match with current blob id");
    expect(failed.error!.message).toContain('nothing was overwritten');
    expect(em.resource(...PIPE)!.body.description).toBe('pushed by a colleague');
    expect(em.commits).toHaveLength(1);
  });

  it("leaves a service or environment stored in Git without a gitFiles entry when it changed: an inline update would change the platform's copy, not the file", async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')], 'project')] });
    const git = { connectorRef: 'account.github', repoName: 'delivery', branch: 'main' };
    seedDocument(em, serviceDoc('api', 'shop'), { git: { ...git, filePath: '.harness/services/api.yaml' } });
    seedDocument(em, environmentDoc('prod', 'shop'), { git: { ...git, filePath: '.harness/envs/prod.yaml' } });
    // The environment as the platform holds it (unchanged: no concern); the service changed.
    const result = await publishWith({
      emulator: em,
      args: [
        await compiled([projectDoc('shop'), serviceDoc('api', 'shop', '5'), environmentDoc('prod', 'shop')]),
        '--json',
      ],
    });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'prod').outcome).toBe('unchanged');
    const failed = doc(result.stdout, 'api');
    expect(failed).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
    expect(failed.error!.message).toBe(
      "service api is stored in Git (delivery, .harness/services/api.yaml), and the config's gitFiles names no place for it, so it would be written inline: an update would change the platform's copy, not the file; it was left as it is; pull again to write its gitFiles entry, or add 'service:default/shop/api' to gitFiles",
    );
    expect(em.writes('service', 'default', 'shop', 'api').updates).toBe(0);
    // --dry-run says so too.
    const planned = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), serviceDoc('api', 'shop', '5')], 'plan'), '--dry-run', '--json'],
    });
    expect(doc(planned.stdout, 'api')).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
  });

  it('compares a service stored in Git with its file, which a push moved on, not with the copy its list holds', async () => {
    const em = await emulate();
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), serviceDoc('web', 'shop')], 'first')],
    });
    seedDocument(em, serviceDoc('api', 'shop'), {
      git: {
        connectorRef: 'account.github',
        repoName: 'delivery',
        branch: 'main',
        filePath: '.harness/services/api.yaml',
      },
    });
    em.edit('service', 'default', 'shop', 'api', (body) => void (body.description = 'pushed to Git'));
    const pushed = { service: { ...serviceDoc('api', 'shop').service, description: 'pushed to Git' } };
    const before = em.requests.length;
    // Two services of one scope: read through their list, the one in Git by GET.
    const result = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), serviceDoc('web', 'shop'), pushed]), '--json'],
    });
    expect(result.code).toBe(0);
    expect(report(result.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 3, failed: 0 });
    const paths = em.requests.slice(before).map((r) => `${r.method} ${r.path.split('?')[0]}`);
    expect(paths).toContain('GET /gateway/ng/api/servicesV2');
    expect(paths).toContain('GET /gateway/ng/api/servicesV2/api');
    expect(paths).not.toContain('GET /gateway/ng/api/servicesV2/web');
  });

  it('stops for a document whose storage differs from what the run asks, both ways', async () => {
    const em = await emulate();
    const out = await compiled([
      projectDoc('shop'),
      pipelineDoc('deploy', 'shop', 'echo two'),
      pipelineDoc('other', 'shop'),
    ]);
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')], 'inline')],
    });
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('other', 'shop')], 'remote'), ...GIT],
    });
    const toRemote = await publishWith({ emulator: em, args: [out, ...GIT, '--json'] });
    expect(toRemote.code).toBe(1);
    expect(doc(toRemote.stdout, 'deploy')).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
    expect(doc(toRemote.stdout, 'deploy').error!.message).toContain(
      'is stored inline, in the platform, and this run publishes to Git',
    );
    const toInline = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('other', 'shop', 'echo two')], 'again'), '--json'],
    });
    expect(doc(toInline.stdout, 'other')).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
    expect(doc(toInline.stdout, 'other').error!.message).toContain(
      'is stored in Git (delivery, .harness/orgs/default/projects/shop/pipelines/other.yaml)',
    );
    expect(em.writes('pipeline', 'default', 'shop', 'deploy').updates).toBe(0);
    expect(em.writes('pipeline', 'default', 'shop', 'other').updates).toBe(0);
  });

  it('fails, without creating, a pipeline whose Git file is gone (400 HINT is not "not there")', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled(SHOP), ...GIT] });
    em.deleteGitFile('default', 'shop', 'deploy');
    const result = await publishWith({ emulator: em, args: [await compiled(SHOP, 'again'), ...GIT, '--json'] });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'deploy')).toMatchObject({ outcome: 'failed', error: { status: 400, code: 'HINT' } });
    expect(doc(result.stdout, 'deploy').error!.message).toContain('File not found');
    expect(em.writes('pipeline', 'default', 'shop', 'deploy')).toEqual({ creates: 1, updates: 0 });
  });

  it('names every missing Git setting at once', async () => {
    const em = await emulate();
    const result = await publishWith({
      emulator: em,
      args: [await compiled(SHOP), '--store', 'remote', '--branch', 'main'],
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipewright: --store remote needs --git-connector <connector>, --repo <name>');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(em.requests).toEqual([]);
  });
});

describe('--fail-on-drift', () => {
  const PIPE: ['pipeline', string, string, string] = ['pipeline', 'default', 'shop', 'deploy'];

  it('fails, and leaves alone, a document someone changed on the platform since the last publish', async () => {
    const em = await emulate();
    const out = await compiled(SHOP);
    expect((await publishWith({ emulator: em, args: [out] })).code).toBe(0);
    expect(JSON.parse(await readFile(join(session.work, 'out.published.json'), 'utf8')).resources).toHaveProperty([
      'pipeline/default/shop//deploy/',
    ]);
    em.edit(...PIPE, (b) => (b.description = 'edited in the UI'));
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run', '--fail-on-drift'] });
    expect(dry.code).toBe(1);
    expect(dry.stdout).toMatch(
      /^FAILED\s+pipeline\s+default\/shop\/deploy\s.*\n\s+drift: changed on the platform since the last publish \(1 difference/m,
    );
    expect(dry.stdout).toContain('- description: "edited in the UI"');
    const run = await publishWith({ emulator: em, args: [out, '--fail-on-drift', '--json'] });
    expect(run.code).toBe(1);
    expect(doc(run.stdout, 'deploy')).toMatchObject({
      outcome: 'failed',
      error: { reason: 'drift' },
      drift: [{ path: 'pipeline.description' }],
    });
    expect(em.resource(...PIPE)!.body.description).toBe('edited in the UI');
    // Without the flag the source wins, as before.
    expect((await publishWith({ emulator: em, args: [out] })).stdout).toMatch(
      /^updated\s+pipeline\s+default\/shop\/deploy/m,
    );
  });

  it('lets our own change through: the platform still holds what was last published', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled(SHOP)] });
    await writeOutputFolder(join(session.work, 'out'), [
      projectDoc('shop'),
      connectorDoc('hub', 'shop'),
      pipelineDoc('deploy', 'shop', 'echo two'),
    ]);
    const result = await publishWith({ emulator: em, args: [join(session.work, 'out'), '--fail-on-drift'] });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^updated\s+pipeline\s+default\/shop\/deploy/m);
  });

  it('publishes even when the record cannot be written, and says so', async () => {
    const em = await emulate();
    const out = await compiled(SHOP);
    await mkdir(join(session.work, 'out.published.json.tmp'));
    const result = await publishWith({ emulator: em, args: [out] });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^total\s+3\s+0\s+0\s+0$/m);
    expect(result.stderr).toContain(`warning: could not write ${join(session.work, 'out.published.json')} (EISDIR)`);
  });

  it('warns when there is no record of an earlier publish to compare with', async () => {
    const em = await emulate();
    const result = await publishWith({ emulator: em, args: [await compiled(SHOP), '--dry-run', '--fail-on-drift'] });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: --fail-on-drift: no record of an earlier publish');
  });
});

describe('the preflight: fail fast when the platform is not there', () => {
  const many = Array.from({ length: 30 }, (_, i) => pipelineDoc(`p${i}`, 'shop'));

  /** A port nothing listens on: one the system just gave out and took back. */
  const closedPort = async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  };

  it('stops at once, with one message naming the address, when nothing listens', async () => {
    const em = await emulate();
    const base = `http://127.0.0.1:${await closedPort()}`;
    const result = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), ...many]), '--dry-run', '--base-url', base],
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`pipewright: no platform at ${base}: the connection was refused (ECONNREFUSED)`);
    expect(result.stderr).toContain('hint: nothing listens there');
    expect(result.stderr.split('\n').filter((l) => l.includes('ECONNREFUSED'))).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it("says so when the port is one fetch refuses (the issue's 127.0.0.1:9)", async () => {
    const em = await emulate();
    const result = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), ...many]), '--dry-run', '--base-url', 'http://127.0.0.1:9'],
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "pipewright: no platform at http://127.0.0.1:9: fetch refuses to connect to this port (one of the Fetch standard's blocked ports)",
    );
    expect(result.stdout).toBe('');
  });

  it("stops when the address answers an HTML page or a 404 without the platform's error body", async () => {
    const html = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Welcome</body></html>'),
    );
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    try {
      const em = await emulate();
      const out = await compiled(SHOP);
      const page = await publishWith({
        emulator: em,
        args: [out, '--base-url', `http://127.0.0.1:${(html.address() as AddressInfo).port}`],
      });
      expect(page.code).toBe(1);
      expect(page.stderr).toMatch(
        /no platform at http:\/\/127\.0\.0\.1:\d+: HTTP 200 with an HTML page, not the platform's JSON/,
      );
      expect(page.stderr).not.toContain('Welcome');
      const bare = await publishWith({ emulator: em, args: [out, '--base-url', `${em.url}/wrong-prefix`] });
      expect(bare.code).toBe(1);
      expect(bare.stderr).toContain(
        `no platform at ${em.url}/wrong-prefix: HTTP 404 without the platform's error body`,
      );
      expect(em.totalWrites()).toBe(0);
      em.violations.length = 0; // the wrong prefix was the point
    } finally {
      html.close();
    }
  });

  it('explains a base URL without a scheme', async () => {
    const em = await emulate();
    const result = await publishWith({ emulator: em, args: [await compiled(SHOP), '--base-url', 'localhost:8080'] });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipewright: base URL "localhost:8080" has no scheme (http:// or https://)');
    expect(result.stderr).toContain('write it as http://localhost:8080');
    expect(result.stderr).not.toContain('null');
  });

  it('reports every missing setting together', async () => {
    const em = await emulate();
    const result = await publishWith({
      emulator: em,
      args: [await compiled(SHOP)],
      env: { HARNESS_BASE_URL: undefined, HARNESS_ACCOUNT_ID: undefined, HARNESS_API_KEY: undefined },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'pipewright: 3 settings are missing: no platform address given; no account identifier given; no API key: HARNESS_API_KEY is not set',
    );
    expect(result.stderr.match(/hint:/g)).toHaveLength(3);
  });
});
