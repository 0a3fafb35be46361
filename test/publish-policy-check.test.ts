import { describe, expect, it } from 'vitest';
import { connectorDoc, pipelineDoc, projectDoc, templateDoc } from './support/emulator-output.js';
import type { PolicySet } from './support/emulator-policies.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';

/**
 * `publish --policy-check`: the platform evaluates the scope's policy sets against each pipeline, template and
 * connector before any write (`POST /pm/api/v1/evaluate-by-type`); denials and warnings are reported per document
 * with the policy set and its messages, a denied document is not written, and with --dry-run nothing is.
 */

const session = emulatorsPerTest('pipewright-policy-');
const { emulate, compiled } = session;

type Json = Record<string, unknown>;
const stepTypes = (pipeline: Json): string[] =>
  JSON.stringify(pipeline)
    .match(/"type":"([A-Za-z]+)"/g)!
    .map((m) => m.slice(8, -1));

const SETS: PolicySet[] = [
  {
    identifier: 'prod_approvals',
    name: 'Production approvals',
    type: 'pipeline',
    rules: [
      {
        policy: 'approval-first',
        severity: 'error',
        check: (p) =>
          String(p.identifier).startsWith('deploy') && !stepTypes(p).includes('HarnessApproval')
            ? 'a Deployment stage needs a HarnessApproval step first'
            : undefined,
      },
    ],
  },
  {
    identifier: 'naming',
    name: 'Naming',
    type: 'pipeline',
    rules: [
      {
        policy: 'lower-case-names',
        severity: 'warning',
        check: (p) =>
          /[A-Z]/.test(String(p.name)) ? `pipeline name "${String(p.name)}" should be lower case` : undefined,
      },
    ],
  },
  {
    identifier: 'registries',
    name: 'Registries',
    type: 'connector',
    rules: [
      {
        policy: 'no-docker-hub',
        severity: 'error',
        check: (c) => (JSON.stringify(c).includes('DockerHub') ? 'public Docker Hub is not allowed' : undefined),
      },
    ],
  },
];

const DOCS = [
  projectDoc('shop'),
  connectorDoc('hub', 'shop'),
  pipelineDoc('deploy', 'shop'),
  { pipeline: { ...pipelineDoc('build', 'shop').pipeline!, name: 'Build' } },
  templateDoc('checks', 'shop', 'v1'),
];

type JsonDocument = {
  identifier: string;
  outcome: string;
  policy?: { status: string; sets: { policySet?: string; deny: boolean; denials: string[]; warnings: string[] }[] };
  error?: { message: string; reason?: string };
};
const documents = (stdout: string) => (JSON.parse(stdout) as { documents: JsonDocument[] }).documents;
const byId = (stdout: string, id: string) => documents(stdout).find((d) => d.identifier === id)!;

describe('publish --policy-check', () => {
  it('with --dry-run: each denial and warning per document, with its policy set; nothing written', async () => {
    const em = await emulate({ policySets: SETS });
    const out = await compiled(DOCS);
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run', '--policy-check'] });
    expect(dry.code).toBe(1);
    expect(dry.stdout).toMatch(
      /^would fail\s+pipeline\s+default\/shop\/deploy\s+pipelines\/default\/shop\/deploy\.yaml\n\s+denied by policy \(--policy-check, before writing\): a Deployment stage needs a HarnessApproval step first \(policy set Production approvals\); the write would be refused$/m,
    );
    expect(dry.stdout).toMatch(
      /^would create\s+pipeline\s+default\/shop\/build\s.*\n\s+policy set Naming warns: pipeline name "Build" should be lower case$/m,
    );
    expect(dry.stdout).toMatch(
      /^would fail\s+connector\s+default\/shop\/hub\s.*\n\s+denied by policy \(--policy-check, before writing\): public Docker Hub is not allowed \(policy set Registries\)/m,
    );
    expect(em.totalWrites()).toBe(0);
    // One evaluation per pipeline, template and connector; none for the project.
    const evaluations = em.requests.filter((r) => r.path.startsWith('/gateway/pm/api/v1/evaluate-by-type'));
    expect(evaluations.map((r) => new URL(r.path, 'http://x').searchParams.get('type')).sort()).toEqual([
      'connector',
      'pipeline',
      'pipeline',
      'template',
    ]);
    const json = await publishWith({ emulator: em, args: [out, '--dry-run', '--policy-check', '--json'] });
    expect(byId(json.stdout, 'build').policy).toEqual({
      status: 'warning',
      sets: [
        { policySet: 'Production approvals', policySetId: 'prod_approvals', deny: false, denials: [], warnings: [] },
        {
          policySet: 'Naming',
          policySetId: 'naming',
          deny: false,
          denials: [],
          warnings: ['pipeline name "Build" should be lower case'],
        },
      ],
    });
    expect(byId(json.stdout, 'checks').policy).toEqual({ status: 'pass', sets: [] });
  });

  it('without --dry-run: a denied document is not written, the others are, and what the pre-flight said is what a save says', async () => {
    const em = await emulate({ policySets: SETS });
    const out = await compiled(DOCS);
    const checked = await publishWith({ emulator: em, args: [out, '--policy-check', '--json'] });
    expect(checked.code).toBe(1);
    expect(byId(checked.stdout, 'deploy')).toMatchObject({ outcome: 'failed', error: { reason: 'denied by policy' } });
    expect(byId(checked.stdout, 'build').outcome).toBe('created');
    expect(
      em.requests
        .filter((r) => r.method === 'POST' && r.path.startsWith('/gateway/pipeline/api/pipelines/v2'))
        .map((r) => r.status),
    ).toEqual([200]);
    expect(em.resource('pipeline', 'default', 'shop', 'deploy')).toBeUndefined();
    // Without the pre-flight the platform itself denies the same document on save.
    const saved = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(byId(saved.stdout, 'deploy').error).toMatchObject({
      reason: 'denied by policy',
      message: expect.stringContaining(
        'a Deployment stage needs a HarnessApproval step first (policy set Production approvals)',
      ),
    });
  });

  it('a document that passes is written as usual, and an unchanged one is reported, not written', async () => {
    const em = await emulate({ policySets: SETS.filter((s) => s.identifier !== 'registries') });
    const out = await compiled([projectDoc('shop'), pipelineDoc('build', 'shop')]);
    expect((await publishWith({ emulator: em, args: [out, '--policy-check'] })).code).toBe(0);
    const again = await publishWith({ emulator: em, args: [out, '--policy-check', '--json'] });
    expect(byId(again.stdout, 'build')).toMatchObject({ outcome: 'unchanged', policy: { status: 'pass' } });
  });

  it('an account without the governance module: "policy evaluation unavailable" is a warning, the plan and the run go on', async () => {
    const em = await emulate({ governance: false });
    const out = await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop'), connectorDoc('hub', 'shop')]);
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run', '--policy-check'] });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toMatch(
      /^warning: policy evaluation unavailable: HTTP 403 forbidden: Policy management is not enabled/m,
    );
    expect(dry.stderr.match(/policy evaluation unavailable/g)).toHaveLength(1);
    expect(dry.stdout).toMatch(/^would create\s+pipeline\s+default\/shop\/deploy\s/m);
    // Asked once: the answer is the account's, not the document's.
    expect(em.requests.filter((r) => r.path.includes('/pm/api/v1/evaluate-by-type'))).toHaveLength(1);
    const run = await publishWith({ emulator: em, args: [out, '--policy-check', '--json'] });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      documents: Array<{ identifier: string; outcome: string; policy?: Json }>;
    };
    expect(report.documents.find((d) => d.identifier === 'deploy')).toMatchObject({
      outcome: 'created',
      policy: { status: 'unavailable', sets: [] },
    });
    expect(em.totalWrites()).toBe(3);
  });

  it('a policy service that is not there (its route missing) is unavailable too; a key without permission still fails', async () => {
    const missing = await emulate({ missingRoutes: [/^\/pm\//] });
    const out = await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')]);
    const dry = await publishWith({ emulator: missing, args: [out, '--dry-run', '--policy-check'] });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain(
      'warning: policy evaluation unavailable: HTTP 400 bad request RESOURCE_NOT_FOUND_EXCEPTION: HTTP 404 Not Found',
    );
    const forbidden = await emulate({
      forbid: (_method, path) => (path.startsWith('/pm/') ? 'core_governancePolicy_evaluate' : undefined),
    });
    const denied = await publishWith({ emulator: forbidden, args: [out, '--dry-run', '--policy-check'] });
    expect(denied.code).toBe(1);
    expect(denied.stderr).not.toContain('policy evaluation unavailable');
  });
});
