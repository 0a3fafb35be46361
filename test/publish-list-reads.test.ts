import { describe, expect, it } from 'vitest';
import {
  connectorDoc,
  environmentDoc,
  infrastructureDoc,
  pipelineDoc,
  projectDoc,
  serviceDoc,
  templateDoc,
  triggerDoc,
  type Doc,
} from './support/emulator-output.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';
import type { Emulator } from './support/emulator.js';
import { ACCOUNT_ID, ADMIN_KEY } from './support/emulator.js';

/**
 * Kinds whose list answers carry the whole document (connectors, services, environments, infrastructure
 * definitions, triggers) are read a page at a time instead of one GET per document; the report says how many
 * requests the run made.
 */

const session = emulatorsPerTest('pipewright-lists-');
const { emulate, compiled } = session;

const report = (stdout: string) =>
  JSON.parse(stdout) as {
    counts: Record<string, number>;
    requests: number;
    documents: { identifier: string; outcome: string }[];
  };
const gets = (em: Emulator, from: number, path: string) =>
  em.requests.slice(from).filter((r) => r.method === 'GET' && r.path.startsWith(`/gateway${path}`));

function estate(): Doc[] {
  const docs: Doc[] = [projectDoc('shop'), pipelineDoc('deploy', 'shop')];
  for (let i = 0; i < 5; i++)
    docs.push(
      connectorDoc(`hub_${i}`, 'shop'),
      serviceDoc(`svc_${i}`, 'shop'),
      environmentDoc(`env_${i}`, 'shop'),
      infrastructureDoc(`k8s_${i}`, 'shop', 'env_0'),
    );
  for (let i = 0; i < 3; i++) docs.push(triggerDoc(`nightly_${i}`, 'shop', 'deploy'));
  return docs;
}

describe('reading the platform a page at a time', () => {
  it('an unchanged estate: one list per scope instead of a GET per document, and the report counts the requests', async () => {
    const em = await emulate();
    const out = await compiled(estate());
    expect((await publishWith({ emulator: em, args: [out] })).code).toBe(0);
    const before = em.requests.length;
    const again = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(report(again.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 25, failed: 0 });
    // preflight + project + pipeline GETs, and one list each of connectors, services, environments, the
    // infrastructures of env_0 and the triggers of deploy.
    expect(report(again.stdout).requests).toBe(em.requests.length - before);
    expect(report(again.stdout).requests).toBe(8);
    for (const path of [
      '/ng/api/servicesV2/',
      '/ng/api/environmentsV2/',
      '/ng/api/infrastructures/',
      '/pipeline/api/triggers/',
    ])
      expect(gets(em, before, path), path).toEqual([]);
    const text = await publishWith({ emulator: em, args: [out] });
    expect(text.stdout).toMatch(/^8 requests to the platform$/m);
  });

  it('finds what changed and what is missing through the list', async () => {
    const em = await emulate();
    const docs = estate();
    await publishWith({ emulator: em, args: [await compiled(docs)] });
    const changed = docs.map((doc) => (doc.service?.identifier === 'svc_1' ? serviceDoc('svc_1', 'shop', '5') : doc));
    em.store.resources.delete(
      [...em.store.resources.entries()].find(([, r]) => r.kind === 'environment' && r.identifier === 'env_3')![0],
    );
    const result = await publishWith({ emulator: em, args: [await compiled(changed, 'changed'), '--json'] });
    const outcome = (id: string) => report(result.stdout).documents.find((d) => d.identifier === id)!.outcome;
    expect([outcome('svc_1'), outcome('env_3'), outcome('svc_2')]).toEqual(['updated', 'created', 'unchanged']);
    expect(em.resource('service', 'default', 'shop', 'svc_1')!.body.serviceDefinition).toEqual(
      serviceDoc('svc_1', 'shop', '5').service!.serviceDefinition,
    );
  });

  it('reads every page of a long list; where the scope holds far more than the run, it reads by GET instead', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')])] });
    for (let i = 0; i < 150; i++)
      em.seed({
        kind: 'service',
        org: 'default',
        project: 'shop',
        identifier: `svc_${String(i).padStart(3, '0')}`,
        body: serviceDoc(`svc_${String(i).padStart(3, '0')}`, 'shop').service!,
      });
    const many = Array.from({ length: 120 }, (_, i) => serviceDoc(`svc_${String(i).padStart(3, '0')}`, 'shop'));
    const before = em.requests.length;
    const all = await publishWith({
      emulator: em,
      args: [await compiled([projectDoc('shop'), ...many], 'many'), '--json'],
    });
    expect(report(all.stdout).counts.unchanged).toBe(121);
    const lists = em.requests.slice(before).filter((r) => r.path.startsWith('/gateway/ng/api/servicesV2?'));
    expect(lists.map((r) => new URL(r.path, 'http://x').searchParams.get('page'))).toEqual(['0', '1']);
    expect(gets(em, before, '/ng/api/servicesV2/')).toEqual([]);
    for (let i = 150; i < 450; i++)
      em.seed({
        kind: 'service',
        org: 'default',
        project: 'shop',
        identifier: `svc_${i}`,
        body: serviceDoc(`svc_${i}`, 'shop').service!,
      });
    const later = em.requests.length;
    const few = await publishWith({
      emulator: em,
      args: [
        await compiled([projectDoc('shop'), serviceDoc('svc_400', 'shop'), serviceDoc('svc_420', 'shop')], 'few'),
        '--json',
      ],
    });
    expect(report(few.stdout).counts.unchanged).toBe(3);
    // One page (it does not hold them), then two GETs: five pages more would have cost more.
    expect(em.requests.slice(later).filter((r) => r.path.startsWith('/gateway/ng/api/servicesV2?'))).toHaveLength(1);
    expect(gets(em, later, '/ng/api/servicesV2/')).toHaveLength(2);
  });

  it("the emulator answers each list in its service's page parameters and shape, and records others as violations", async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')])] });
    const get = (path: string) => fetch(`${em.url}/gateway${path}`, { headers: { 'x-api-key': ADMIN_KEY } });
    const scope = `accountIdentifier=${ACCOUNT_ID}&orgIdentifier=default&projectIdentifier=shop`;
    const services = (await (await get(`/ng/api/servicesV2?${scope}&page=0&size=10`)).json()) as {
      data: Record<string, unknown>;
    };
    expect(services.data).toMatchObject({ content: [], totalItems: 0, pageIndex: 0, pageSize: 10 });
    const pipelines = await fetch(`${em.url}/gateway/pipeline/api/pipelines/list?${scope}&page=0&size=10`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ filterType: 'PipelineSetup' }),
    });
    expect(((await pipelines.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      content: [{ identifier: 'deploy' }],
      totalElements: 1,
      number: 0,
      last: true,
    });
    // page/size are not the input-set list's parameters (pageIndex/pageSize are).
    expect((await get(`/pipeline/api/inputSets?${scope}&pipelineIdentifier=deploy&page=0&size=10`)).status).toBe(400);
    expect(em.violations.splice(0)).toEqual([
      expect.stringContaining('unexpected query parameter page on the inputSet list'),
    ]);
  });

  it('the emulator sorts by every sort parameter in turn; versions that tie under them move with an edit, as on the platform', async () => {
    const em = await emulate();
    await publishWith({ emulator: em, args: [await compiled([projectDoc('shop')])] });
    for (const version of ['v1', 'v2', 'v3'])
      em.seed({
        kind: 'template',
        org: 'default',
        project: 'shop',
        identifier: 'checks',
        versionLabel: version,
        body: templateDoc('checks', 'shop', version).template!,
      });
    const labels = async (sort: readonly string[]) => {
      const query = new URLSearchParams({
        accountIdentifier: ACCOUNT_ID,
        orgIdentifier: 'default',
        projectIdentifier: 'shop',
        templateListType: 'All',
        page: '0',
        size: '10',
      });
      for (const key of sort) query.append('sort', key);
      const response = await fetch(`${em.url}/gateway/template/api/templates/list-metadata?${query}`, {
        method: 'POST',
        headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ filterType: 'Template' }),
      });
      return ((await response.json()) as { data: { content: { versionLabel: string }[] } }).data.content.map(
        (item) => item.versionLabel,
      );
    };
    em.edit('template', 'default', 'shop', 'checks', (body) => void (body.name = 'edited'), { versionLabel: 'v2' });
    // By identifier alone the versions tie, and the one edited last comes first; the label makes the order total.
    expect(await labels(['identifier,ASC'])).toEqual(['v2', 'v3', 'v1']);
    expect(await labels(['identifier,ASC', 'versionLabel,ASC'])).toEqual(['v1', 'v2', 'v3']);
    expect(await labels(['identifier,ASC', 'versionLabel,DESC'])).toEqual(['v3', 'v2', 'v1']);
    expect(em.violations).toEqual([]);
  });
});
