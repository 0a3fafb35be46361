import { describe, expect, it } from 'vitest';
import {
  connectorDoc,
  inputSetDoc,
  pipelineDoc,
  projectDoc,
  templateDoc,
  templatedPipelineDoc,
} from './support/emulator-output.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';

/**
 * `--dry-run` predicts what the real run would do, failures included: a write whose organization, project,
 * pipeline or template is neither on the platform nor in the run would fail, and says so; what the platform saves
 * without but a run misses (a connector, service or environment) is a warning.
 */

const session = emulatorsPerTest('pipewright-plan-');
const { emulate, compiled } = session;

type JsonDocument = {
  identifier: string;
  outcome: string;
  warnings?: string[];
  error?: { message: string; reason?: string };
};
const report = (stdout: string) => JSON.parse(stdout) as { counts: Record<string, number>; documents: JsonDocument[] };
const failedIds = (stdout: string) =>
  report(stdout)
    .documents.filter((d) => d.outcome === 'failed')
    .map((d) => d.identifier)
    .sort();

describe('dry-run checks what each write depends on', () => {
  it('the issue\'s 22 pipelines of a project that does not exist: "would fail", as the real run then does', async () => {
    const em = await emulate();
    const docs = [
      projectDoc('shop'),
      ...Array.from({ length: 22 }, (_, i) => pipelineDoc(`deploy_${i}`, 'ghost')),
      pipelineDoc('fine', 'shop'),
    ];
    const out = await compiled(docs);
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run'] });
    expect(dry.code).toBe(1);
    expect(dry.stdout).toMatch(
      /^would fail\s+pipeline\s+default\/ghost\/deploy_0\s+pipelines\/default\/ghost\/deploy_0\.yaml\n\s+missing dependency: its project, project default\/ghost, does not exist on the platform and is not in this run: the platform would refuse the create$/m,
    );
    expect(dry.stdout).toMatch(/^would create\s+pipeline\s+default\/shop\/fine\s/m);
    // One read of the missing project for all 22, not one each.
    expect(em.requests.filter((r) => r.path.startsWith('/gateway/ng/api/projects/ghost'))).toHaveLength(1);
    expect(em.totalWrites()).toBe(0);
    const predicted = failedIds((await publishWith({ emulator: em, args: [out, '--dry-run', '--json'] })).stdout);
    expect(predicted).toHaveLength(22);
    const real = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(failedIds(real.stdout)).toEqual(predicted);
  });

  it('a dependency in the run counts as there; one the run predicts to fail makes its dependants fail too', async () => {
    const em = await emulate();
    const docs = [
      projectDoc('shop'),
      projectDoc('lost', { orgIdentifier: 'nowhere' }),
      pipelineDoc('deploy', 'shop'),
      { pipeline: { ...pipelineDoc('orphan', 'lost').pipeline!, orgIdentifier: 'nowhere' } },
    ];
    const dry = await publishWith({ emulator: em, args: [await compiled(docs), '--dry-run', '--json'] });
    const byId = (id: string) => report(dry.stdout).documents.find((d) => d.identifier === id)!;
    expect(byId('deploy').outcome).toBe('created');
    expect(byId('lost').error).toMatchObject({
      reason: 'missing dependency',
      message: expect.stringContaining('its organization, organization nowhere, does not exist on the platform'),
    });
    expect(byId('orphan').error!.message).toContain(
      'its project, project nowhere/lost, would fail itself (missing dependency)',
    );
  });

  it('a template reference: would fail when the template is missing, fine when it is in the run or on the platform', async () => {
    const em = await emulate();
    const missing = await publishWith({
      emulator: em,
      args: [
        await compiled([projectDoc('shop'), templatedPipelineDoc('ci', 'shop', 'checks', 'v1')]),
        '--dry-run',
        '--json',
      ],
    });
    expect(report(missing.stdout).documents.find((d) => d.identifier === 'ci')!.error!.message).toBe(
      'stage "checks" > template.templateRef, template default/shop/checks@v1, does not exist on the platform and is not in this run: the platform would refuse the create',
    );
    const inRun = await publishWith({
      emulator: em,
      args: [
        await compiled(
          [projectDoc('shop'), templateDoc('checks', 'shop', 'v1'), templatedPipelineDoc('ci', 'shop', 'checks', 'v1')],
          'with',
        ),
        '--dry-run',
      ],
    });
    expect(inRun.code).toBe(0);
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), templateDoc('checks', 'shop', 'v1')], 'template')],
    });
    const onPlatform = await publishWith({
      emulator: em,
      args: [
        await compiled([projectDoc('shop'), templatedPipelineDoc('ci', 'shop', 'checks', 'v1')], 'later'),
        '--dry-run',
      ],
    });
    expect(onPlatform.code).toBe(0);
  });

  it('an input set whose pipeline is missing would fail; the emulator refuses it as the platform does', async () => {
    const em = await emulate();
    const out = await compiled([projectDoc('shop'), inputSetDoc('eu', 'shop', 'nope')]);
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run', '--json'] });
    expect(report(dry.stdout).documents.find((d) => d.identifier === 'eu')!.error!.message).toMatch(
      /^its pipeline, pipeline default\/shop\/nope, does not exist/,
    );
    expect(failedIds((await publishWith({ emulator: em, args: [out, '--json'] })).stdout)).toEqual(['eu']);
  });

  it('a route missing on the server is not a project missing: no "would fail"; the project really missing is one', async () => {
    // The server answers the projects read as the platform answers an unknown path: 400 RESOURCE_NOT_FOUND_EXCEPTION
    // "HTTP 404 Not Found", the code a missing entity gets.
    const em = await emulate({ missingRoutes: [/^\/ng\/api\/projects\//] });
    const out = await compiled([pipelineDoc('deploy', 'ghost')]);
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run', '--json'] });
    expect(em.requests.some((r) => r.path.startsWith('/gateway/ng/api/projects/ghost') && r.status === 400)).toBe(true);
    expect(report(dry.stdout).documents.find((d) => d.identifier === 'deploy')).toMatchObject({ outcome: 'created' });
    expect(dry.code).toBe(0);
    // The same document where the route answers and the project is missing: the prediction stands.
    const answering = await emulate();
    const plain = await publishWith({ emulator: answering, args: [out, '--dry-run', '--json'] });
    expect(failedIds(plain.stdout)).toEqual(['deploy']);
  });

  it('a missing connector is a warning, not a failure: the platform saves the pipeline', async () => {
    const em = await emulate();
    const pipeline = pipelineDoc('deploy', 'shop');
    const uses = JSON.parse(JSON.stringify(pipeline).replace('"connectorRef":"<+input>"', '"connectorRef":"k8s_prod"'));
    const docs = [projectDoc('shop'), connectorDoc('hub', 'shop'), uses];
    const dry = await publishWith({ emulator: em, args: [await compiled(docs), '--dry-run', '--json'] });
    expect(dry.code).toBe(0);
    expect(report(dry.stdout).documents.find((d) => d.identifier === 'deploy')).toMatchObject({
      outcome: 'created',
      warnings: [
        'stage "deploy_to_k8s" > spec.infrastructure.infrastructureDefinition.spec.connectorRef, connector default/shop/k8s_prod, does not exist on the platform and is not in this run: the platform saves the pipeline, and a run of it fails',
      ],
    });
    const text = await publishWith({ emulator: em, args: [await compiled(docs, 'text'), '--dry-run'] });
    expect(text.stdout).toContain(
      '    warning: stage "deploy_to_k8s" > spec.infrastructure.infrastructureDefinition.spec.connectorRef, connector default/shop/k8s_prod, does not exist',
    );
    expect((await publishWith({ emulator: em, args: [await compiled(docs, 'real')] })).code).toBe(0);
  });
});
