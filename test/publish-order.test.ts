import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { publishDocument } from '../src/platform/document.js';
import { publishWaves } from '../src/publish/publish-order.js';
import type { PublishItem } from '../src/publish/publish-item.js';

/** The order publish sends documents in: the table's kinds, and within templates what is used first. */

const item = (doc: Record<string, unknown>): PublishItem => {
  const body = Object.values(doc)[0] as { identifier: string };
  return { file: `${Object.keys(doc)[0]}/${body.identifier}.yaml`, document: publishDocument(stringify(doc)) };
};
const template = (
  identifier: string,
  versionLabel: string,
  uses: readonly { templateRef: string; versionLabel?: string }[] = [],
  scope: Record<string, string> = { orgIdentifier: 'default', projectIdentifier: 'shop' },
) =>
  item({
    template: {
      name: identifier,
      identifier,
      versionLabel,
      ...scope,
      type: 'Stage',
      spec: {
        type: 'Custom',
        spec: {
          execution: { steps: uses.map((template, i) => ({ step: { name: `s${i}`, identifier: `s${i}`, template } })) },
        },
      },
    },
  });
const names = (waves: PublishItem[][]) =>
  waves.map((wave) => wave.map((i) => `${i.document.id.identifier}@${i.document.id.version ?? ''}`).sort());

describe('publish order', () => {
  it('sends kinds in the table order whatever the folder order', () => {
    const docs = [
      item({
        trigger: {
          name: 't',
          identifier: 't',
          orgIdentifier: 'default',
          projectIdentifier: 'shop',
          pipelineIdentifier: 'p',
        },
      }),
      item({
        pipeline: { name: 'p', identifier: 'p', orgIdentifier: 'default', projectIdentifier: 'shop', stages: [] },
      }),
      item({
        infrastructureDefinition: {
          name: 'i',
          identifier: 'i',
          orgIdentifier: 'default',
          projectIdentifier: 'shop',
          environmentRef: 'qa',
        },
      }),
      template('checks', 'v1'),
      item({
        environment: {
          name: 'qa',
          identifier: 'qa',
          orgIdentifier: 'default',
          projectIdentifier: 'shop',
          type: 'PreProduction',
        },
      }),
      item({
        inputSet: {
          name: 'n',
          identifier: 'n',
          orgIdentifier: 'default',
          projectIdentifier: 'shop',
          pipeline: { identifier: 'p' },
        },
      }),
    ];
    expect(publishWaves(docs).map((wave) => wave.map((i) => i.document.id.kind))).toEqual([
      ['environment'],
      ['infrastructure'],
      ['template'],
      ['pipeline'],
      ['inputSet'],
      ['trigger'],
    ]);
  });

  it('sends a template after the templates it uses, by version, and together what does not depend on each other', () => {
    const waves = publishWaves([
      template('pipeline_tpl', '1', [{ templateRef: 'stage_tpl', versionLabel: '2' }]),
      template('stage_tpl', '2', [{ templateRef: 'step_tpl', versionLabel: 'v1' }]),
      template('stage_tpl', '1'),
      template('step_tpl', 'v1'),
      template('other', 'v1'),
    ]);
    expect(names(waves)).toEqual([['other@v1', 'stage_tpl@1', 'step_tpl@v1'], ['stage_tpl@2'], ['pipeline_tpl@1']]);
  });

  it('reads org. and account. references as the scope they name, and a reference without a version as any version', () => {
    const account = template('shared', 'v1', [], {});
    const org = template('org_step', 'v1', [], { orgIdentifier: 'default' });
    const local = template('shared', 'v1');
    const user = template('user', 'v1', [
      { templateRef: 'account.shared', versionLabel: 'v1' },
      { templateRef: 'org.org_step' },
    ]);
    const waves = publishWaves([user, local, org, account]);
    expect(waves.map((wave) => wave.map((i) => i.file))).toHaveLength(2);
    expect(waves[1]).toEqual([user]);
    // The project's own `shared` is not the account's: it is not waited for, but it is in the first wave anyway.
    expect(new Set(waves[0])).toEqual(new Set([local, org, account]));
  });

  it('sends templates that use each other in a circle together rather than never', () => {
    const waves = publishWaves([
      template('a', '1', [{ templateRef: 'b', versionLabel: '1' }]),
      template('b', '1', [{ templateRef: 'a', versionLabel: '1' }]),
      template('c', '1'),
    ]);
    expect(names(waves)).toEqual([['c@1'], ['a@1', 'b@1']]);
  });
});
