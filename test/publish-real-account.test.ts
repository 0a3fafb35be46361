import { describe, expect, it } from 'vitest';
import { toEnvelope, type ApiError } from '../src/platform/envelope.js';
import {
  artifactTriggerDoc,
  environmentDoc,
  inputSetDoc,
  overlayInputSetDoc,
  pipelineDoc,
  projectDoc,
  serviceDoc,
  serviceV2PipelineDoc,
  templateDoc,
  templatedPipelineDoc,
  triggerDoc,
  webhookTriggerDoc,
} from './support/emulator-output.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';
import type { Emulator } from './support/emulator.js';

/**
 * What a publish to a real account meets that the facts of platform-facts-3.md §2 (D1-D7) describe, each against
 * the emulator answering as the platform's server source does: scope Git settings, the three policy-denial forms,
 * triggers the platform disables, Git writes in order, the v2 pipeline calls and `public`, Git-stored pipelines'
 * dependants, soft-deleted identifiers.
 */

const session = emulatorsPerTest('pipewright-account-');
const { emulate, compiled } = session;

type JsonDocument = {
  file: string;
  kind: string;
  identifier: string;
  outcome: string;
  error?: { message: string; reason?: string; status?: number; code?: string };
};
const report = (stdout: string) =>
  JSON.parse(stdout) as { ok: boolean; counts: Record<string, number>; documents: JsonDocument[] };
const doc = (stdout: string, identifier: string) => report(stdout).documents.find((d) => d.identifier === identifier)!;
/** The requests of a method whose path starts with `path`, with their query. */
const sent = (em: Emulator, method: string, path: string) =>
  em.requests
    .filter((r) => r.method === method && r.path.startsWith(`/gateway${path}`))
    .map((r) => new URL(r.path, 'http://x'));

const GIT = ['--store', 'remote', '--git-connector', 'github', '--repo', 'delivery', '--branch', 'main'];

describe('D1: inline creates say storeType=INLINE', () => {
  const everything = () => [
    projectDoc('shop'),
    serviceDoc('web', 'shop'),
    environmentDoc('qa', 'shop'),
    templateDoc('checks', 'shop', 'v1'),
    templatedPipelineDoc('ci', 'shop', 'checks', 'v1'),
    inputSetDoc('eu', 'shop', 'ci'),
    overlayInputSetDoc('both', 'shop', 'ci', ['eu']),
  ];

  it('publishes every kind inline in a scope whose default store type is Remote', async () => {
    const em = await emulate({ gitSettings: { default: { defaultStoreType: 'REMOTE' } } });
    const result = await publishWith({ emulator: em, args: [await compiled(everything()), '--json'] });
    expect(result.code).toBe(0);
    expect(report(result.stdout).counts).toEqual({ created: 7, updated: 0, unchanged: 0, failed: 0 });
    for (const path of [
      '/ng/api/servicesV2',
      '/ng/api/environmentsV2',
      '/template/api/templates',
      '/pipeline/api/pipelines/v2',
      '/pipeline/api/inputSets',
    ])
      for (const url of sent(em, 'POST', path)) expect(url.searchParams.get('storeType'), url.pathname).toBe('INLINE');
    expect(em.resource('pipeline', 'default', 'shop', 'ci')!.git).toBeUndefined();
  });

  it('the emulator, like the platform, turns a create without storeType into a Git one there, and fails it', async () => {
    const em = await emulate({ gitSettings: { 'default/shop': { defaultStoreType: 'REMOTE' } } });
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')])] });
    const response = await fetch(`${em.url}/gateway/ng/api/servicesV2?accountIdentifier=${em.accountId}`, {
      method: 'POST',
      headers: { 'x-api-key': 'pat.emulator.admin.Zx81c9Qe4t7Lm2Vb', 'content-type': 'application/json' },
      body: JSON.stringify({
        identifier: 'web',
        orgIdentifier: 'default',
        projectIdentifier: 'shop',
        name: 'Service web',
        yaml: 'service:\n  name: Service web\n  identifier: web\n  orgIdentifier: default\n  projectIdentifier: shop\n',
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST', message: 'No file path provided.' });
  });

  it('says what to do where Git Experience is enforced; pipelines and input sets go to Git with --store remote', async () => {
    const em = await emulate({ gitSettings: { 'default/shop': { enforced: true } } });
    const docs = [projectDoc('shop'), pipelineDoc('deploy', 'shop'), serviceDoc('web', 'shop')];
    const inline = await publishWith({ emulator: em, args: [await compiled(docs), '--json'] });
    expect(inline.code).toBe(1);
    for (const id of ['deploy', 'web']) {
      expect(doc(inline.stdout, id).error).toMatchObject({ reason: 'git experience' });
      expect(doc(inline.stdout, id).error!.message).toMatch(
        /Git Experience is enforced for the current scope.*this scope enforces Git Experience: publish pipelines and input sets with --store remote/,
      );
    }
    const remote = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')], 'remote'), ...GIT, '--json'],
    });
    expect(remote.code).toBe(0);
    expect(em.resource('pipeline', 'default', 'shop', 'deploy')!.git).toMatchObject({ repoName: 'delivery' });
  });
});

describe('D2: a policy denial in each of its three forms is "denied by policy"', () => {
  it('400 POLICY_EVALUATION_FAILURE with the evaluation: the policy set and its message, nothing stored', async () => {
    const em = await emulate({
      deny: [
        {
          kind: 'pipeline',
          identifier: 'deploy',
          policySet: 'Prod approvals',
          message: 'a Deployment stage needs an approval',
          form: 'policy-evaluation-failure',
        },
      ],
    });
    const result = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')]), '--json'],
    });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'deploy').error).toMatchObject({
      reason: 'denied by policy',
      status: 400,
      code: 'POLICY_EVALUATION_FAILURE',
    });
    expect(doc(result.stdout, 'deploy').error!.message).toMatch(
      /^denied by policy: a Deployment stage needs an approval \(policy set Prod approvals\); nothing was stored/,
    );
    expect(em.resource('pipeline', 'default', 'shop', 'deploy')).toBeUndefined();
  });

  it("the deprecated calls' 400 INVALID_REQUEST naming the policy sets", () => {
    const body = JSON.stringify({
      status: 'ERROR',
      code: 'INVALID_REQUEST',
      message: 'Pipeline does not follow the Policies in these Policy Sets: [ps_prod]',
      correlationId: 'c1',
    });
    const error = (() => {
      try {
        toEnvelope(400, body, 'POST /gateway/pipeline/api/pipelines');
      } catch (e) {
        return e as ApiError;
      }
      throw new Error('no error');
    })();
    expect(error).toMatchObject({ kind: 'denied', status: 400, code: 'INVALID_REQUEST' });
    expect(error.message).toBe(
      'denied by policy: Pipeline does not follow the Policies in these Policy Sets: [ps_prod]; nothing was stored (HTTP 400 INVALID_REQUEST)',
    );
    // Another INVALID_REQUEST stays a plain rejection.
    expect(() =>
      toEnvelope(
        400,
        JSON.stringify({ status: 'ERROR', code: 'INVALID_REQUEST', message: 'Project [x] does not exist' }),
        'POST /x',
      ),
    ).toThrow(expect.objectContaining({ kind: 'rejected' }));
  });

  it('the emulator answers the deprecated pipeline call so, and records its use as a contract violation', async () => {
    const em = await emulate({ deny: [{ kind: 'pipeline', identifier: 'deploy', message: 'no' }] });
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')])] });
    const response = await fetch(
      `${em.url}/gateway/pipeline/api/pipelines?accountIdentifier=${em.accountId}&orgIdentifier=default&projectIdentifier=shop`,
      {
        method: 'POST',
        headers: { 'x-api-key': 'pat.emulator.admin.Zx81c9Qe4t7Lm2Vb', 'content-type': 'application/yaml' },
        body: 'pipeline:\n  name: deploy\n  identifier: deploy\n  orgIdentifier: default\n  projectIdentifier: shop\n  stages: []\n',
      },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'Pipeline does not follow the Policies in these Policy Sets: [ps_set]',
    });
    expect(em.violations.splice(0)).toEqual([expect.stringContaining('deprecated pipeline endpoint')]);
  });
});

describe('D3: triggers', () => {
  const SHOP = [projectDoc('shop'), serviceV2PipelineDoc('cd', 'shop'), artifactTriggerDoc('on_image', 'shop', 'cd')];

  it('creates with withServiceV2=true: an artifact trigger of a service-v2 pipeline stays on, and the next run writes nothing', async () => {
    const em = await emulate();
    const out = await compiled(SHOP);
    const first = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(first.code).toBe(0);
    expect(sent(em, 'POST', '/pipeline/api/triggers').map((u) => u.searchParams.get('withServiceV2'))).toEqual([
      'true',
    ]);
    expect(em.resource('trigger', 'default', 'shop', 'on_image', { parent: 'cd' })!.body.enabled).toBe(true);
    const second = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(report(second.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 3, failed: 0 });
  });

  it("reports a trigger the platform disabled after saving it, with the platform's reason, never as updated", async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled(SHOP.slice(0, 2))] });
    // Made before pipewright sent the flag: the platform keeps withServiceV2=false for every later update.
    em.seed({
      kind: 'trigger',
      org: 'default',
      project: 'shop',
      identifier: 'on_image',
      parent: 'cd',
      body: { ...artifactTriggerDoc('on_image', 'shop', 'cd').trigger!, enabled: false },
      withServiceV2: false,
    });
    const result = await publishWith({ emulator: em, args: [await compiled(SHOP, 'again'), '--json'] });
    expect(result.code).toBe(1);
    const trigger = doc(result.stdout, 'on_image');
    expect(trigger).toMatchObject({ outcome: 'failed', error: { reason: 'disabled by the platform' } });
    expect(trigger.error!.message).toContain(
      'updated, but the platform disabled the trigger (enabled: false) after its validation failed: Artifact With Given StageIdentifier and ArtifactRef in Trigger does not exist in Pipeline',
    );
    expect(trigger.error!.message).toContain('delete it in the platform and publish again');
  });

  it('the emulator disables an artifact trigger created without the flag, as the platform does', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled(SHOP.slice(0, 2))] });
    const response = await fetch(
      `${em.url}/gateway/pipeline/api/triggers?accountIdentifier=${em.accountId}&orgIdentifier=default&projectIdentifier=shop&targetIdentifier=cd`,
      {
        method: 'POST',
        headers: { 'x-api-key': 'pat.emulator.admin.Zx81c9Qe4t7Lm2Vb', 'content-type': 'application/yaml' },
        body: (await import('yaml')).stringify(artifactTriggerDoc('on_image', 'shop', 'cd')),
      },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { enabled: boolean; yaml: string } }).data).toMatchObject({
      enabled: false,
      yaml: expect.stringContaining('enabled: false'),
    });
  });

  it('fails a 200 with errorResponse: true, which stores nothing', async () => {
    const em = await emulate({ triggerErrors: ['nightly'] });
    const result = await publishWith({
      emulator: em,
      args: [
        await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop'), triggerDoc('nightly', 'shop', 'deploy')]),
        '--json',
      ],
    });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'nightly').error!.message).toMatch(
      /^the platform answered 200 SUCCESS with errorResponse: true \(type: Invalid trigger source for this pipeline\): nothing was stored/,
    );
    expect(em.resource('trigger', 'default', 'shop', 'nightly', { parent: 'deploy' })).toBeUndefined();
  });
});

describe('D4: writes the platform serialises badly go one at a time', () => {
  it('commits Git-stored pipelines of one repository and branch one after the other: no blob-id conflicts', async () => {
    const em = await emulate();
    const docs = [projectDoc('shop'), ...Array.from({ length: 6 }, (_, i) => pipelineDoc(`p${i}`, 'shop'))];
    const result = await publishWith({ emulator: em, args: [await compiled(docs), ...GIT, '--concurrency', '4'] });
    expect(result.code).toBe(0);
    expect(em.gitCollisions).toBe(0);
    expect(em.commits).toHaveLength(6);
  });

  it('the emulator, like the platform, refuses a commit to a branch while another is under way', async () => {
    const em = await emulate({ gitCommitMs: 100 });
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')])] });
    const body = (id: string) =>
      `pipeline:\n  name: ${id}\n  identifier: ${id}\n  orgIdentifier: default\n  projectIdentifier: shop\n  stages: []\n`;
    const answers = await Promise.all(
      ['a', 'b'].map((id) =>
        fetch(
          `${em.url}/gateway/pipeline/api/pipelines/v2?accountIdentifier=${em.accountId}&orgIdentifier=default&projectIdentifier=shop&storeType=REMOTE&connectorRef=github&repoName=delivery&branch=main&filePath=${id}.yaml&commitMsg=m`,
          {
            method: 'POST',
            headers: { 'x-api-key': 'pat.emulator.admin.Zx81c9Qe4t7Lm2Vb', 'content-type': 'application/yaml' },
            body: body(id),
          },
        ).then((r) => r.status),
      ),
    );
    expect(answers.sort()).toEqual([200, 409]);
    expect(em.gitCollisions).toBe(1);
  });

  it('retries once a 409 for a file whose content did not change (only its blob moved), and writes', async () => {
    const em = await emulate();
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')]), ...GIT],
    });
    // Rewritten with the same meaning (another tool reformatted it): a new blob, the same pipeline.
    em.afterNextRead('pipeline', 'default', 'shop', 'deploy', () =>
      em.edit('pipeline', 'default', 'shop', 'deploy', () => {}),
    );
    const result = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop', 'echo two')], 'two'), ...GIT, '--json'],
    });
    expect(result.code).toBe(0);
    expect(doc(result.stdout, 'deploy').outcome).toBe('updated');
    expect(em.requests.filter((r) => r.method === 'PUT' && r.status === 409)).toHaveLength(1);
  });

  it('creates webhook triggers one at a time with a pause, so no webhook is registered twice; without the pause one is', async () => {
    const docs = [
      projectDoc('shop'),
      pipelineDoc('deploy', 'shop'),
      ...['a', 'b', 'c'].map((id) => webhookTriggerDoc(`push_${id}`, 'shop', 'deploy')),
    ];
    const paused = await emulate({ webhookRegistrationMs: 20 });
    const calm = await publishWith({
      emulator: paused,
      args: [await compiled(docs), '--concurrency', '4'],
      env: { PIPEWRIGHT_WEBHOOK_PAUSE_MS: '250' },
    });
    expect(calm.code).toBe(0);
    expect(paused.webhooks.registered).toHaveLength(3);
    expect(paused.webhooks.duplicates).toBe(0);
    const hurried = await emulate({ webhookRegistrationMs: 500 });
    await publishWith({
      emulator: hurried,
      args: [await compiled(docs, 'hurried'), '--concurrency', '4'],
      env: { PIPEWRIGHT_WEBHOOK_PAUSE_MS: '0' },
    });
    expect(hurried.webhooks.duplicates).toBeGreaterThan(0);
  });
});

describe('D5: inline pipelines through /v2, keeping a public pipeline public', () => {
  it('creates and updates at /pipelines/v2', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')])] });
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop', 'echo two')], 'two')],
    });
    expect(
      em.requests
        .filter((r) => r.method !== 'GET' && r.path.includes('/pipelines'))
        .map((r) => `${r.method} ${r.path.split('?')[0]}`),
    ).toEqual(['POST /gateway/pipeline/api/pipelines/v2', 'PUT /gateway/pipeline/api/pipelines/v2/deploy']);
  });

  it('sends public=true when the platform says the pipeline is public; without it the platform makes it private', async () => {
    const em = await emulate();
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop'), pipelineDoc('other', 'shop')])],
    });
    for (const id of ['deploy', 'other']) em.resource('pipeline', 'default', 'shop', id)!.public = true;
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop', 'echo two')], 'two')],
    });
    expect(em.resource('pipeline', 'default', 'shop', 'deploy')!.public).toBe(true);
    expect(sent(em, 'PUT', '/pipeline/api/pipelines/v2/deploy')[0]!.searchParams.get('public')).toBe('true');
    // The emulator's side of it: an update that does not say public makes the pipeline private.
    await fetch(
      `${em.url}/gateway/pipeline/api/pipelines/v2/other?accountIdentifier=${em.accountId}&orgIdentifier=default&projectIdentifier=shop`,
      {
        method: 'PUT',
        headers: { 'x-api-key': 'pat.emulator.admin.Zx81c9Qe4t7Lm2Vb', 'content-type': 'application/yaml' },
        body: (await import('yaml')).stringify(pipelineDoc('other', 'shop', 'echo three')),
      },
    );
    expect(em.resource('pipeline', 'default', 'shop', 'other')!.public).toBe(false);
  });
});

describe('D6: dependants of Git-stored pipelines', () => {
  it('refuses a trigger without pipelineBranchName before sending it; with one it is created', async () => {
    const em = await emulate();
    const out = await compiled([
      projectDoc('shop'),
      pipelineDoc('deploy', 'shop'),
      triggerDoc('nightly', 'shop', 'deploy'),
    ]);
    const result = await publishWith({ emulator: em, args: [out, ...GIT, '--json'] });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'nightly').error).toMatchObject({ reason: 'needs pipelineBranchName' });
    expect(doc(result.stdout, 'nightly').error!.message).toContain('give it pipelineBranchName: main');
    expect(sent(em, 'POST', '/pipeline/api/triggers')).toEqual([]);
    const fixed = await publishWith({
      emulator: em,
      args: [
        await compiled(
          [
            projectDoc('shop'),
            pipelineDoc('deploy', 'shop'),
            { trigger: { ...triggerDoc('nightly', 'shop', 'deploy').trigger!, pipelineBranchName: 'main' } },
          ],
          'fixed',
        ),
        ...GIT,
      ],
    });
    expect(fixed.code).toBe(0);
  });

  it('the emulator refuses such a trigger as the platform does', async () => {
    const em = await emulate();
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')]), ...GIT],
    });
    const response = await fetch(
      `${em.url}/gateway/pipeline/api/triggers?accountIdentifier=${em.accountId}&orgIdentifier=default&projectIdentifier=shop&targetIdentifier=deploy&withServiceV2=true`,
      {
        method: 'POST',
        headers: { 'x-api-key': 'pat.emulator.admin.Zx81c9Qe4t7Lm2Vb', 'content-type': 'application/yaml' },
        body: (await import('yaml')).stringify(triggerDoc('nightly', 'shop', 'deploy')),
      },
    );
    expect(await response.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'Failed while Saving Trigger: pipelineBranchName is missing or is empty.',
    });
  });

  it('keeps the input sets of Git-stored pipelines in Git beside them, and a re-run writes nothing', async () => {
    const em = await emulate();
    const out = await compiled([
      projectDoc('shop'),
      templatedPipelineDoc('ci', 'shop', 'checks', 'v1'),
      templateDoc('checks', 'shop', 'v1'),
      inputSetDoc('eu', 'shop', 'ci'),
      overlayInputSetDoc('both', 'shop', 'ci', ['eu']),
    ]);
    const first = await publishWith({ emulator: em, args: [out, ...GIT] });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(em.resource('inputSet', 'default', 'shop', 'eu', { parent: 'ci' })!.git).toMatchObject({
      repoName: 'delivery',
      branch: 'main',
      filePath: '.harness/orgs/default/projects/shop/pipelines/ci/input_sets/eu.yaml',
    });
    expect(em.commits.map((c) => c.message)).toContain('pipewright: publish overlay input set both from defs/both.ts');
    const again = await publishWith({ emulator: em, args: [out, ...GIT] });
    expect(again.stdout).toMatch(/^total\s+0\s+0\s+5\s+0$/m);
  });

  it('the emulator refuses an inline input set for a Git-stored pipeline; publish says why', async () => {
    const em = await emulate();
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')]), ...GIT],
    });
    const result = await publishWith({
      emulator: em,
      args: [await compiled([inputSetDoc('eu', 'shop', 'deploy')], 'inline'), '--json'],
    });
    expect(result.code).toBe(1);
    expect(doc(result.stdout, 'eu').error).toMatchObject({ reason: 'storage mismatch' });
    expect(doc(result.stdout, 'eu').error!.message).toMatch(
      /Input Set should have the same Store Type as the Pipeline it is for.*publish with --store remote when the pipeline is in Git/,
    );
  });
});

describe('D7: soft-deleted identifiers', () => {
  it('says that an identifier which "exists" on create and is missing on update belongs to a deleted resource', async () => {
    const em = await emulate({
      softDeleted: [{ kind: 'pipeline', org: 'default', project: 'shop', identifier: 'deploy' }],
    });
    const result = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')]), '--json'],
    });
    expect(result.code).toBe(1);
    const pipeline = doc(result.stdout, 'deploy');
    expect(pipeline.error).toMatchObject({ reason: 'soft deleted' });
    expect(pipeline.error!.message).toContain(
      'already exists on create ("or has been deleted") and that it does not exist on update',
    );
    expect(pipeline.error!.message).toContain('Restore it in the platform, or give this one another identifier');
  });
});
