import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeIn } from './support/cli.js';
import type { Emulator } from './support/emulator.js';
import {
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
  writeOutputFolder,
  type Doc,
} from './support/emulator-output.js';
import type { NotFoundForm } from './support/emulator-rest.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';

/**
 * publish of services, environments, infrastructures, templates, input sets, overlay input sets and triggers
 * through the real binary against the emulator, which answers each kind at its own endpoints and refuses a
 * document whose environment, template, pipeline or input sets are not there yet (platform-facts-2.md §6).
 */

const session = emulatorsPerTest('pipewright-kinds-');
const { emulate, compiled } = session;

type JsonDocument = {
  file: string;
  kind: string;
  identifier: string;
  parent?: string;
  version?: string;
  outcome: string;
  changes?: { path: string }[];
  drift?: { path: string }[];
  error?: { message: string; reason?: string };
};
const report = (stdout: string) =>
  JSON.parse(stdout) as { ok: boolean; counts: Record<string, number>; documents: JsonDocument[] };

/** One of each kind, in a project: a stage template using a step template version, a pipeline using it, its inputs and a trigger. */
const stepTemplate = (script = 'make lint'): Doc => ({
  template: {
    name: 'Lint',
    identifier: 'lint',
    versionLabel: '1',
    orgIdentifier: 'default',
    projectIdentifier: 'shop',
    tags: {},
    type: 'Step',
    spec: {
      type: 'ShellScript',
      spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script } } },
      timeout: '5m',
    },
  },
});
const stageUsingStep = (): Doc => {
  const doc = templateDoc('checks', 'shop', 'v1');
  const body = doc.template as any;
  body.spec.spec.execution.steps.push({
    step: { name: 'lint', identifier: 'lint', template: { templateRef: 'lint', versionLabel: '1' } },
  });
  return doc;
};
const everything = (): Doc[] => [
  projectDoc('shop'),
  serviceDoc('web', 'shop'),
  environmentDoc('qa', 'shop'),
  infrastructureDoc('k8s', 'shop', 'qa'),
  stepTemplate(),
  stageUsingStep(),
  templatedPipelineDoc('ci', 'shop', 'checks', 'v1'),
  pipelineDoc('deploy', 'shop'),
  inputSetDoc('eu', 'shop', 'ci'),
  inputSetDoc('us', 'shop', 'ci', 'us'),
  overlayInputSetDoc('both', 'shop', 'ci', ['eu', 'us']),
  triggerDoc('nightly', 'shop', 'ci', '0 4 * * *', ['eu']),
];

/** Writes in the order they reached the emulator, as `METHOD path` without the query. */
const writes = (em: Emulator) =>
  em.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.split('?')[0]}`);

describe('publish of every kind', () => {
  it('creates each kind at its endpoints, in dependency order, and stores what was compiled', async () => {
    const em = await emulate();
    const result = await publishWith({ emulator: em, args: [await compiled(everything())] });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^total\s+12\s+0\s+0\s+0$/m);
    const order = writes(em);
    const first = (path: string) => order.findIndex((w) => w.endsWith(path));
    const last = (path: string) => order.length - 1 - [...order].reverse().findIndex((w) => w.endsWith(path));
    // Services and environments before infrastructures, templates before pipelines, pipelines before input sets
    // and triggers, input sets before the overlay that combines them (the emulator refuses anything else, so a run
    // without failures also means the step template went before the stage template using it).
    expect(first('/ng/api/infrastructures')).toBeGreaterThan(
      Math.max(last('/ng/api/servicesV2'), last('/ng/api/environmentsV2')),
    );
    expect(first('/pipeline/api/pipelines/v2')).toBeGreaterThan(last('/template/api/templates'));
    expect(first('/pipeline/api/inputSets')).toBeGreaterThan(last('/pipeline/api/pipelines/v2'));
    expect(first('/pipeline/api/inputSets/overlay')).toBeGreaterThan(last('/pipeline/api/inputSets'));
    expect(first('/pipeline/api/triggers')).toBeGreaterThan(last('/pipeline/api/inputSets/overlay'));
    expect(order.filter((w) => w.startsWith('POST')).length).toBe(12);
    // Each is there, as compiled, under its parent or version.
    expect(em.resource('service', 'default', 'shop', 'web')!.body).toEqual(serviceDoc('web', 'shop').service);
    expect(em.resource('infrastructure', 'default', 'shop', 'k8s', { parent: 'qa' })!.body).toEqual(
      infrastructureDoc('k8s', 'shop', 'qa').infrastructureDefinition,
    );
    expect(em.resource('template', 'default', 'shop', 'lint', { versionLabel: '1' })!.body).toEqual(
      stepTemplate().template,
    );
    expect(em.resource('inputSet', 'default', 'shop', 'us', { parent: 'ci' })!.body).toEqual(
      inputSetDoc('us', 'shop', 'ci', 'us').inputSet,
    );
    expect(em.resource('trigger', 'default', 'shop', 'nightly', { parent: 'ci' })!.raw).not.toContain(
      '# Generated by pipewright',
    );
    // The summary has a row per kind the run had, and none for connectors.
    for (const plural of [
      'projects',
      'services',
      'environments',
      'infrastructure definitions',
      'templates',
      'pipelines',
      'input sets',
      'overlay input sets',
      'triggers',
    ])
      expect(result.stdout).toMatch(new RegExp(`^${plural}\\s+\\d+\\s+0\\s+0\\s+0$`, 'm'));
    expect(result.stdout).not.toMatch(/^connectors\s/m);
    expect(result.stdout).toMatch(/^created\s+inputSet\s+default\/shop\/ci\/us\s+input-sets\//m);
    expect(result.stdout).toMatch(/^created\s+template\s+default\/shop\/checks@v1\s+templates\//m);
  });

  it('writes nothing on a second run: every kind reads back unchanged', async () => {
    const em = await emulate();
    const out = await compiled(everything());
    expect((await publishWith({ emulator: em, args: [out] })).code).toBe(0);
    const before = em.totalWrites();
    const requests = em.requests.length;
    const again = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(again.code).toBe(0);
    expect(report(again.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 12, failed: 0 });
    expect(em.totalWrites()).toBe(before);
    expect(em.requests.slice(requests).every((r) => r.method === 'GET')).toBe(true);
  });

  it('updates a changed document of each kind with its own PUT, and only those', async () => {
    const em = await emulate();
    expect((await publishWith({ emulator: em, args: [await compiled(everything())] })).code).toBe(0);
    const changed = everything().map((doc) => {
      const copy = structuredClone(doc) as Record<string, Record<string, unknown>>;
      const body = Object.values(copy)[0]!;
      if (body.identifier !== 'shop' && body.identifier !== 'deploy') body.description = 'changed';
      return copy;
    });
    const requests = em.requests.length;
    const result = await publishWith({ emulator: em, args: [await compiled(changed, 'changed'), '--json'] });
    expect(result.code).toBe(0);
    expect(report(result.stdout).counts).toEqual({ created: 0, updated: 10, unchanged: 2, failed: 0 });
    const puts = em.requests
      .slice(requests)
      .filter((r) => r.method === 'PUT')
      .map((r) => r.path.split('?')[0]);
    expect(new Set(puts)).toEqual(
      new Set([
        '/gateway/ng/api/servicesV2',
        '/gateway/ng/api/environmentsV2',
        '/gateway/ng/api/infrastructures',
        '/gateway/template/api/templates/update/lint/1',
        '/gateway/template/api/templates/update/checks/v1',
        '/gateway/pipeline/api/pipelines/v2/ci',
        '/gateway/pipeline/api/inputSets/eu',
        '/gateway/pipeline/api/inputSets/us',
        '/gateway/pipeline/api/inputSets/overlay/both',
        '/gateway/pipeline/api/triggers/nightly',
      ]),
    );
    expect(em.resource('environment', 'default', 'shop', 'qa')!.body.description).toBe('changed');
    expect(em.writes('template', 'default', 'shop', 'checks', { versionLabel: 'v1' })).toEqual({
      creates: 1,
      updates: 1,
    });
    expect(em.writes('overlayInputSet', 'default', 'shop', 'both', { parent: 'ci' })).toEqual({
      creates: 1,
      updates: 1,
    });
  });

  it('creates a new template version beside the old one instead of overwriting it', async () => {
    const em = await emulate();
    await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), templateDoc('checks', 'shop', 'v1')])],
    });
    const result = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), templateDoc('checks', 'shop', 'v2', 'make test v2')], 'v2')],
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^created\s+template\s+default\/shop\/checks@v2\s/m);
    expect(em.resource('template', 'default', 'shop', 'checks', { versionLabel: 'v1' })).toBeDefined();
    expect(em.writes('template', 'default', 'shop', 'checks', { versionLabel: 'v1' })).toEqual({
      creates: 1,
      updates: 0,
    });
  });

  it('--dry-run reads only: would create each kind, then shows the semantic diff of an input set', async () => {
    const em = await emulate();
    const out = await compiled(everything());
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run', '--json'] });
    expect(dry.code).toBe(0);
    expect(report(dry.stdout).counts.created).toBe(12);
    expect(em.totalWrites()).toBe(0);
    await publishWith({ emulator: em, args: [out] });
    const docs = everything();
    docs[9] = inputSetDoc('us', 'shop', 'ci', 'ap');
    const diff = await publishWith({ emulator: em, args: [await compiled(docs, 'diff'), '--dry-run'] });
    expect(diff.stdout).toMatch(/^would update inputSet\s+default\/shop\/ci\/us\s/m);
    expect(diff.stdout).toContain('~ pipeline "ci" > variables[0].value: "us" -> "ap"');
    expect(em.writes('inputSet', 'default', 'shop', 'us', { parent: 'ci' })).toEqual({ creates: 1, updates: 0 });
  });
});

describe('how each kind answers', () => {
  const forms: NotFoundForm[] = ['404 ENTITY_NOT_FOUND', '400 RESOURCE_NOT_FOUND_EXCEPTION', '400 INVALID_REQUEST'];
  it.each(forms)('creates every kind when its GET answers %s for a missing one', async (form) => {
    const kinds = [
      'project',
      'service',
      'environment',
      'infrastructure',
      'template',
      'pipeline',
      'inputSet',
      'overlayInputSet',
      'trigger',
    ] as const;
    const em = await emulate({ notFound: Object.fromEntries(kinds.map((kind) => [kind, form])) });
    const result = await publishWith({ emulator: em, args: [await compiled(everything())] });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^total\s+12\s+0\s+0\s+0$/m);
  });

  it('fails a service and a template a policy denies, and what the platform then refuses for want of them; stores the rest', async () => {
    const em = await emulate({
      deny: [
        { kind: 'service', identifier: 'web', message: 'services need an owner tag' },
        { kind: 'template', identifier: 'lint', message: 'scripts must be reviewed' },
        { kind: 'inputSet', identifier: 'eu', policySet: 'Regions', message: 'eu is frozen' },
      ],
    });
    const result = await publishWith({ emulator: em, args: [await compiled(everything()), '--json'] });
    expect(result.code).toBe(1);
    const failed = report(result.stdout).documents.filter((d) => d.outcome === 'failed');
    // The stage template uses the denied step template: the platform refuses it, and so the pipeline and what hangs on it.
    expect(failed.map((d) => [d.kind, d.identifier, d.error!.reason])).toEqual([
      ['service', 'web', 'denied by policy'],
      ['template', 'checks', undefined],
      ['template', 'lint', 'denied by policy'],
      ['pipeline', 'ci', undefined],
      ['inputSet', 'eu', undefined],
      ['inputSet', 'us', undefined],
      ['overlayInputSet', 'both', undefined],
      ['trigger', 'nightly', undefined],
    ]);
    expect(failed[0]!.error!.message).toContain('services need an owner tag');
    expect(failed[1]!.error!.message).toContain('Template reference [lint, versionLabel 1]');
    expect(em.resource('service', 'default', 'shop', 'web')).toBeUndefined();
    expect(em.resource('infrastructure', 'default', 'shop', 'k8s', { parent: 'qa' })).toBeDefined();
  });

  it('fails a denied input set with the policy set, and keeps its pipeline', async () => {
    const em = await emulate({
      deny: [{ kind: 'inputSet', identifier: 'eu', policySet: 'Regions', message: 'eu is frozen' }],
    });
    const result = await publishWith({ emulator: em, args: [await compiled(everything()), '--json'] });
    expect(result.code).toBe(1);
    const eu = report(result.stdout).documents.find((d) => d.identifier === 'eu')!;
    expect(eu).toMatchObject({
      kind: 'inputSet',
      parent: 'ci',
      outcome: 'failed',
      error: { reason: 'denied by policy' },
    });
    expect(eu.error!.message).toContain('eu is frozen (policy set Regions)');
    // The overlay combines it, so the platform refuses the overlay too.
    expect(report(result.stdout).counts).toEqual({ created: 10, updated: 0, unchanged: 0, failed: 2 });
    expect(report(result.stdout).documents.find((d) => d.identifier === 'both')!.error!.message).toContain(
      'input set [eu]',
    );
  });

  it('--fail-on-drift leaves alone an environment someone edited on the platform', async () => {
    const em = await emulate();
    const docs = [projectDoc('shop'), environmentDoc('qa', 'shop')];
    const out = await compiled(docs);
    expect((await publishWith({ emulator: em, args: [out] })).code).toBe(0);
    em.edit('environment', 'default', 'shop', 'qa', (body) => (body.description = 'edited in the UI'));
    const changed = [projectDoc('shop'), environmentDoc('qa', 'shop', 'Production')];
    await writeOutputFolder(out, changed);
    const result = await publishWith({ emulator: em, args: [out, '--fail-on-drift', '--json'] });
    expect(result.code).toBe(1);
    const qa = report(result.stdout).documents.find((d) => d.identifier === 'qa')!;
    expect(qa).toMatchObject({ outcome: 'failed', error: { reason: 'drift' } });
    expect(qa.drift!.map((c) => c.path)).toEqual(['environment.description']);
    expect(em.resource('environment', 'default', 'shop', 'qa')!.body.type).toBe('PreProduction');
  });
});

describe('the delivery example', () => {
  it('publishes everything in order against the emulator, and a second run writes nothing', async () => {
    const out = join(session.work, 'delivery');
    const compiledExample = await runCli(['compile', 'examples/delivery/*.ts', '-o', out]);
    expect(compiledExample.stderr).toBe('');
    expect(compiledExample.code).toBe(0);
    const em = await emulate();
    const first = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const documents = report(first.stdout).documents;
    expect(documents.every((d) => d.outcome === 'created')).toBe(true);
    // The creates reached the platform kind by kind, in the table's order.
    const kindOfPath: Record<string, string> = {
      '/gateway/ng/api/projects': 'project',
      '/gateway/ng/api/servicesV2': 'service',
      '/gateway/ng/api/environmentsV2': 'environment',
      '/gateway/ng/api/infrastructures': 'infrastructure',
      '/gateway/template/api/templates': 'template',
      '/gateway/pipeline/api/pipelines/v2': 'pipeline',
      '/gateway/pipeline/api/inputSets': 'inputSet',
      '/gateway/pipeline/api/triggers': 'trigger',
    };
    const created = writes(em).map((w) => kindOfPath[w.replace(/^POST /, '')]);
    expect([...new Set(created)]).toEqual([
      'project',
      'service',
      'environment',
      'infrastructure',
      'template',
      'pipeline',
      'inputSet',
      'trigger',
    ]);
    expect(created).toHaveLength(10);
    // Three pipelines use the one template version.
    for (const id of ['checkout_api', 'checkout_web', 'checkout_worker'])
      expect((em.resource('pipeline', 'default', 'delivery', id)!.body.stages as any[])[0].stage.template).toEqual({
        templateRef: 'quality_gate',
        versionLabel: 'v1',
      });
    expect(
      em.resource('trigger', 'default', 'delivery', 'nightly', { parent: 'checkout_api' })!.body.inputSetRefs,
    ).toEqual(['nightly']);
    const before = em.totalWrites();
    const second = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(second.code).toBe(0);
    expect(report(second.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 10, failed: 0 });
    expect(em.totalWrites()).toBe(before);
  });
});

describe('stable template versions', () => {
  it('makes a version marked stable the stable one with its own call, once; a version not marked leaves it', async () => {
    const dir = join(session.work, 'stable');
    const definition = (
      version: string,
      stable: boolean,
    ) => `import { project, shell, stage, template } from 'pipewright';
export const shop = project({ identifier: 'shop', org: 'default' });
export const checks = template.stage({
  identifier: 'checks',
  project: shop,
  versionLabel: '${version}',${stable ? '\n  stable: true,' : ''}
  spec: stage({ identifier: 'checks', type: 'Custom' }).step(shell({ identifier: 'lint', script: 'make lint ${version}', timeout: '5m' })),
});
`;
    const compileVersion = async (version: string, stable = false) => {
      await writeIn(dir, `${version}/defs.ts`, definition(version, stable));
      const result = await runCli(['compile', `${version}/defs.ts`, '-o', `${version}/out`], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      return join(dir, version, 'out');
    };
    const stableOf = (em: Emulator, version: string) =>
      em.resource('template', 'default', 'shop', 'checks', { versionLabel: version })?.stable ?? false;
    const em = await emulate();
    expect((await publishWith({ emulator: em, args: [await compileVersion('v1')] })).code).toBe(0);
    expect((await publishWith({ emulator: em, args: [await compileVersion('v2')] })).code).toBe(0);
    expect([stableOf(em, 'v1'), stableOf(em, 'v2')]).toEqual([true, false]);

    const v3 = await compileVersion('v3', true);
    // The YAML is the platform's (no such field); the manifest tells publish.
    expect(await readFile(join(v3, 'templates/default/shop/checks/v3.yaml'), 'utf8')).not.toContain('stable');
    const manifest = JSON.parse(await readFile(join(v3, 'manifest.json'), 'utf8')) as {
      files: Array<Record<string, unknown>>;
    };
    expect(manifest.files.find((entry) => entry.kind === 'template')).toMatchObject({ version: 'v3', stable: true });

    const dry = await publishWith({ emulator: em, args: [v3, '--dry-run', '--json'] });
    expect(report(dry.stdout).documents.find((d) => d.kind === 'template')).toMatchObject({
      outcome: 'created',
      changes: [{ path: 'stable version' }],
    });
    expect(stableOf(em, 'v1')).toBe(true);

    const requests = em.requests.length;
    const first = await publishWith({ emulator: em, args: [v3] });
    expect(first.code, first.stderr).toBe(0);
    expect(
      em.requests
        .slice(requests)
        .filter((r) => r.method === 'PUT')
        .map((r) => r.path.split('?')[0]),
    ).toEqual(['/gateway/template/api/templates/updateStableTemplate/checks/v3']);
    expect([stableOf(em, 'v1'), stableOf(em, 'v3')]).toEqual([false, true]);

    const again = await publishWith({ emulator: em, args: [v3, '--json'] });
    expect(report(again.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 2, failed: 0 });
    expect(em.requests.slice(requests).filter((r) => r.method !== 'GET')).toHaveLength(2);
  });
});
