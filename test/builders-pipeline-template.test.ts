import { describe, expect, it } from 'vitest';
import { custom, inputSet, input, pipeline, project, shell, template, type TemplatePipelineBuilder } from 'pipewright';
import { synth } from 'pipewright/testing';

/**
 * A pipeline made from a pipeline template (`pipeline({ template })`): the template has the stages, the pipeline
 * names it and gives the values of its runtime inputs; and `fixedInputsOnRerun`, a pipeline option of the schema.
 */
const shop = project({ identifier: 'shop' });
const flow = template.pipeline({
  identifier: 'release_flow',
  project: shop,
  versionLabel: 'v1',
  spec: pipeline({ identifier: 'flow', project: shop }).stage(
    custom({ identifier: 'ship', timeout: input() }).step(shell({ identifier: 'say', script: 'echo' })),
  ),
});
const problems = (resources: Parameters<typeof synth>[0]) =>
  synth(resources).diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`);

describe('pipeline({ template })', () => {
  it('writes the template block and no stages; a template builder gives its identifier and version', () => {
    const release = pipeline({
      identifier: 'release',
      project: shop,
      template: {
        templateRef: flow,
        templateInputs: { stages: [{ stage: { identifier: 'ship', type: 'Custom', timeout: '10m' } }] },
      },
    });
    expect(release.toDocument()).toEqual({
      pipeline: {
        name: 'release',
        identifier: 'release',
        projectIdentifier: 'shop',
        orgIdentifier: 'default',
        template: {
          templateRef: 'release_flow',
          versionLabel: 'v1',
          templateInputs: { stages: [{ stage: { identifier: 'ship', type: 'Custom', timeout: '10m' } }] },
        },
      },
    });
    expect(problems([shop, flow, release])).toEqual([]);
  });

  it('takes a template named as text, with its git branch', () => {
    const release = pipeline({
      identifier: 'release',
      project: 'shop',
      template: { templateRef: 'account.shared', versionLabel: '2', gitBranch: 'main' },
    });
    expect(release.toDocument().pipeline.template).toEqual({
      templateRef: 'account.shared',
      versionLabel: '2',
      gitBranch: 'main',
    });
    expect(release.toDocument().pipeline).not.toHaveProperty('stages');
    expect(problems(release)).toEqual([]);
  });

  it('refuses .stage() and .step(): the stages are in the template', () => {
    const release = pipeline({
      identifier: 'release',
      project: 'shop',
      template: { templateRef: 'shared', versionLabel: '1' },
    }) as TemplatePipelineBuilder;
    const stage = custom({ identifier: 'c' });
    expect(() => (release.stage as (...s: unknown[]) => unknown)(stage)).toThrowError(
      'pipeline "release".stage(): a pipeline made from a template has no stages of its own: put the stages in the template',
    );
    expect(() => (release.step as (...s: unknown[]) => unknown)(shell({ identifier: 's', script: 'x' }))).toThrowError(
      'pipeline "release".step(): a pipeline made from a template has no stages of its own',
    );
  });

  it('reports stages given beside a template, and writes them as given', () => {
    const both = pipeline({
      identifier: 'release',
      project: 'shop',
      template: { templateRef: 'shared', versionLabel: '1' },
      stages: [custom({ identifier: 'c' })],
    } as never) as unknown as TemplatePipelineBuilder;
    expect(problems(both)).toContainEqual(
      expect.stringMatching(/^error unknown-option: pipeline\(\) made from a template has no option "stages"/),
    );
    expect(both.toDocument().pipeline).toHaveProperty('stages');
  });

  it('is a pipeline an input set can name', () => {
    const release = pipeline({ identifier: 'release', project: shop, template: { templateRef: flow } });
    const values = inputSet({
      identifier: 'prod',
      pipeline: release,
      values: {
        identifier: 'release',
        template: { templateInputs: { stages: [{ stage: { identifier: 'ship', type: 'Custom', timeout: '10m' } }] } },
      },
    });
    expect(problems([shop, flow, release, values]).filter((p) => p.startsWith('error'))).toEqual([]);
    expect(values.toDocument().inputSet).toMatchObject({
      pipeline: { identifier: 'release' },
      projectIdentifier: 'shop',
    });
  });

  it('still refuses template inputs in an input set of a pipeline that is not made from a template', () => {
    const own = pipeline({ identifier: 'own', project: 'shop' }).stage(
      custom({ identifier: 'ship' }).step(shell({ identifier: 'say', script: input() })),
    );
    const values = inputSet({
      identifier: 'prod',
      pipeline: own,
      values: { identifier: 'own', template: { templateInputs: { stages: [] } } },
    });
    expect(problems([own, values])).toContainEqual(
      expect.stringMatching(/^error input-set-not-an-input: template\.templateInputs/),
    );
  });
});

describe('fixedInputsOnRerun', () => {
  it('is written as given', () => {
    const run = pipeline({ identifier: 'run', project: 'shop', fixedInputsOnRerun: true }).stage(
      custom({ identifier: 'c' }).step(shell({ identifier: 's', script: 'x' })),
    );
    expect(run.toDocument().pipeline).toMatchObject({ fixedInputsOnRerun: true });
    expect(problems(run)).toEqual([]);
  });

  it('refuses a value that is no boolean (the platform reads a Java boolean)', () => {
    const run = pipeline({ identifier: 'run', project: 'shop', fixedInputsOnRerun: 'yes' as never }).stage(
      custom({ identifier: 'c' }).step(shell({ identifier: 's', script: input() })),
    );
    expect(problems(run)).toContainEqual(expect.stringMatching(/^error \S+: .*fixedInputsOnRerun/));
  });
});
