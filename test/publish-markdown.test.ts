import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectorDoc, pipelineDoc, projectDoc, writeOutputFolder } from './support/emulator-output.js';
import type { PolicySet } from './support/emulator-policies.js';
import { markdownReport } from '../src/publish/report-markdown.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';

/**
 * `publish --format markdown`: the report alone on stdout, in Markdown, for a CI job summary (the plan on a pull
 * request) or a merge request comment: counts, would-fail, drift, creates and updates with their semantic diff,
 * policy results and orphans.
 */

const session = emulatorsPerTest('pipewright-markdown-');
const { emulate, compiled } = session;

const NAMING: PolicySet[] = [
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
];

const named = (doc: ReturnType<typeof pipelineDoc>, name: string) => ({ pipeline: { ...doc.pipeline!, name } });

describe('publish --format markdown', () => {
  it('writes the plan of a dry run: what would fail, drift, creates, updates with their diff, policy warnings, orphans', async () => {
    const em = await emulate({ policySets: NAMING });
    const out = await compiled([
      projectDoc('shop'),
      connectorDoc('hub', 'shop'),
      pipelineDoc('deploy', 'shop'),
      pipelineDoc('build', 'shop'),
    ]);
    expect((await publishWith({ emulator: em, args: [out] })).code).toBe(0);
    em.edit('pipeline', 'default', 'shop', 'build', (body) => (body.description = 'edited in the UI'));
    // The next change: deploy's script, a new pipeline named against the policy, one in a project that does not
    // exist, and the connector's source deleted.
    await writeOutputFolder(out, [
      projectDoc('shop'),
      pipelineDoc('deploy', 'shop', 'echo `two`'),
      pipelineDoc('build', 'shop'),
      named(pipelineDoc('release', 'shop'), 'Release'),
      pipelineDoc('lost', 'ghost'),
    ]);
    const plan = await publishWith({
      emulator: em,
      args: [out, '--dry-run', '--fail-on-drift', '--policy-check', '--format', 'markdown'],
    });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(1);
    expect(em.totalWrites()).toBe(1 + 1 + 2);
    expect(plan.stdout.replaceAll(em.url, 'https://platform.example').replaceAll(join(session.work, 'out'), 'out'))
      .toMatchInlineSnapshot(`
      "## pipewright plan: \`out\` against https://platform.example (account \`acct_emulator_1\`)

      A dry run: nothing was written. This is what a publish would do.

      | | would create | would update | unchanged | failed |
      |---|---:|---:|---:|---:|
      | projects | 0 | 0 | 1 | 0 |
      | pipelines | 1 | 1 | 0 | 2 |
      | **total** | **1** | **1** | **1** | **2** |

      ### Would fail (1)

      - pipeline \`default/ghost/lost\` (\`pipelines/default/ghost/lost.yaml\`): missing dependency: its project, project default/ghost, does not exist on the platform and is not in this run: the platform would refuse the create

      ### Drift: changed on the platform since the last publish, left alone (1)

      - pipeline \`default/shop/build\` (\`pipelines/default/shop/build.yaml\`): drift: changed on the platform since the last publish (1 difference from what pipewright published): not overwritten because of --fail-on-drift; bring the change into the source, or publish without --fail-on-drift to replace it

        <details><summary>changed on the platform</summary>

        \`\`\`diff
        - description: "edited in the UI"
        \`\`\`

        </details>

      ### Would create (1)

      - pipeline \`default/shop/release\` (\`pipelines/default/shop/release.yaml\`)
        - policy set \`Naming\` warns: pipeline name "Release" should be lower case

      ### Would update (1)

      - pipeline \`default/shop/deploy\` (\`pipelines/default/shop/deploy.yaml\`): 1 change

        <details><summary>diff</summary>

        \`\`\`diff
        ~ stage "deploy_to_k8s" > step "echo" > spec.source.spec.script: "echo \\"deploying deploy\\"" -> "echo \`two\`"
        \`\`\`

        </details>

      ### Orphans: recorded, source gone (1)

      - connector \`default/shop/hub\` (published from \`connectors/default/shop/hub.yaml\`): its source is gone; \`publish --prune\` deletes it

      12 requests to the platform.
      "
    `);
  });

  it('writes what a publish did, and nothing else on stdout', async () => {
    const em = await emulate();
    const out = await compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')]);
    const run = await publishWith({ emulator: em, args: [out, '--format', 'markdown'] });
    expect(run.code).toBe(0);
    expect(run.stdout.replaceAll(em.url, 'https://platform.example').replaceAll(out, 'out')).toMatchInlineSnapshot(`
      "## pipewright publish: \`out\` to https://platform.example (account \`acct_emulator_1\`)

      | | created | updated | unchanged | failed |
      |---|---:|---:|---:|---:|
      | projects | 1 | 0 | 0 | 0 |
      | pipelines | 1 | 0 | 0 | 0 |
      | **total** | **2** | **0** | **0** | **0** |

      ### Created (2)

      - project \`default/shop\` (\`projects/default/shop.yaml\`)
      - pipeline \`default/shop/deploy\` (\`pipelines/default/shop/deploy.yaml\`)

      5 requests to the platform.
      "
    `);
    const again = await publishWith({ emulator: em, args: [out, '--format', 'markdown'] });
    expect(again.stdout).toContain('| **total** | **0** | **0** | **2** | **0** |');
    expect(again.stdout).not.toContain('###');
  });

  it('is refused beside --json, and for a format it does not know', async () => {
    const em = await emulate();
    const out = await compiled([projectDoc('shop')]);
    const both = await publishWith({ emulator: em, args: [out, '--json', '--format', 'markdown'] });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("option '--format <format>' cannot be used with option '--json'");
    const unknown = await publishWith({ emulator: em, args: [out, '--format', 'html'] });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Allowed choices are text, markdown');
    expect(em.requests).toEqual([]);
  });

  it('keeps what the platform said from breaking the page, and folds a long diff', () => {
    const changes = Array.from({ length: 45 }, (_, i) => ({
      path: `pipeline.tags.t${i}`,
      op: 'added' as const,
      local: `v${i}`,
    }));
    const text = markdownReport(
      {
        dryRun: true,
        results: [
          {
            file: 'pipelines/a.yaml',
            kind: 'pipeline',
            name: 'default/shop/a',
            id: { kind: 'pipeline', identifier: 'a' },
            outcome: 'failed',
            error: { message: 'bad <script> | `x` *y*', correlationId: 'c-1' },
          },
          {
            file: 'pipelines/b.yaml',
            kind: 'pipeline',
            name: 'default/shop/b',
            id: { kind: 'pipeline', identifier: 'b' },
            outcome: 'updated',
            changes,
          },
        ],
      },
      { baseUrl: 'https://app.harness.io', accountId: 'abc', dir: 'out' },
    );
    expect(text).toContain(
      '- pipeline `default/shop/a` (`pipelines/a.yaml`): bad \\<script\\> \\| \\`x\\` \\*y\\* (correlationId c-1)\n',
    );
    expect(text).toContain('  + pipeline.tags.t39: "v39"\n  ... and 5 more (the job\'s log has them all)\n');
    expect(text).not.toContain('t40');
  });
});
