import { describe, expect, it } from 'vitest';
import { validateDocument } from '../src/check/check-document.js';

/**
 * The document schemas of the kinds beside pipelines: templates and triggers follow the platform's published
 * schema (structure generated from it); services, environments, infrastructures and input sets the facts file.
 */
const codes = (kind: Parameters<typeof validateDocument>[0], document: unknown) =>
  validateDocument(kind, document).filter((d) => d.severity === 'error');
const scope = { orgIdentifier: 'default', projectIdentifier: 'web' };
const template = (fields: Record<string, unknown>) => ({
  template: { name: 'Echo', identifier: 'echo', versionLabel: 'v1', ...scope, ...fields },
});

describe('template documents', () => {
  it('takes a step template: the step without identifier and name', () => {
    const doc = template({
      type: 'Step',
      spec: {
        type: 'ShellScript',
        timeout: '10m',
        spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script: 'echo hi' } } },
      },
    });
    expect(codes('template', doc)).toEqual([]);
  });

  it('checks the step inside by its type: a step spec missing what the step type requires is refused', () => {
    const doc = template({ type: 'Step', spec: { type: 'ShellScript', spec: { shell: 'Bash' } } });
    expect(codes('template', doc).map((d) => d.path.join('.'))).toContain('template.spec.spec.source');
  });

  it('reports a misspelt key inside a template spec', () => {
    const doc = template({
      type: 'Stage',
      spec: { type: 'Custom', spec: { execution: { steps: [] } }, failureStrategie: [] },
    });
    const typo = validateDocument('template', doc).find((d) => d.code === 'unknown-key');
    expect(typo?.hint).toBe('did you mean "failureStrategies"?');
  });

  it('takes a pipeline template without the pipeline identity fields', () => {
    const doc = template({
      type: 'Pipeline',
      spec: {
        stages: [
          {
            stage: {
              name: 's',
              identifier: 's',
              type: 'Custom',
              spec: {
                execution: {
                  steps: [{ step: { name: 'w', identifier: 'w', type: 'Wait', spec: { duration: '1m' } } }],
                },
              },
            },
          },
        ],
      },
    });
    expect(codes('template', doc)).toEqual([]);
  });

  it('refuses a version label the platform refuses, and an unknown template type', () => {
    expect(
      codes(
        'template',
        template({ type: 'Step', versionLabel: 'v 1', spec: { type: 'Wait', spec: { duration: '1m' } } }),
      ).map((d) => d.path.join('.')),
    ).toEqual(['template.versionLabel']);
    expect(codes('template', template({ type: 'Job', spec: {} })).map((d) => d.path.join('.'))).toEqual([
      'template.type',
    ]);
  });

  it('checks the spec of template types that hold no pipeline part by the published schema', () => {
    expect(
      codes('template', template({ type: 'Workspace', spec: { cost_estimation: { enabled: true, budget: 100 } } })),
    ).toEqual([]);
    expect(
      codes('template', template({ type: 'Workspace', spec: { cost_estimation: { budget: 'a lot' } } })).map((d) =>
        d.path.join('.'),
      ),
    ).toEqual(['template.spec.cost_estimation.budget']);
  });
});

describe('trigger documents', () => {
  const trigger = (fields: Record<string, unknown>) => ({
    trigger: {
      name: 'nightly',
      identifier: 'nightly',
      ...scope,
      pipelineIdentifier: 'deploy',
      enabled: true,
      ...fields,
    },
  });

  it('takes a cron trigger and a GitHub pull request webhook', () => {
    expect(
      codes(
        'trigger',
        trigger({ source: { type: 'Scheduled', spec: { type: 'Cron', spec: { expression: '0 2 * * *' } } } }),
      ),
    ).toEqual([]);
    const webhook = {
      type: 'Webhook',
      spec: {
        type: 'Github',
        spec: {
          type: 'PullRequest',
          spec: { connectorRef: 'gh', autoAbortPreviousExecutions: false, actions: ['Open'] },
        },
      },
    };
    expect(codes('trigger', trigger({ source: webhook, inputYaml: 'pipeline: {}\n' }))).toEqual([]);
  });

  it('refuses a source type the platform does not have, and a webhook event of the wrong kind', () => {
    expect(codes('trigger', trigger({ source: { type: 'Email' } })).map((d) => d.path.join('.'))).toEqual([
      'trigger.source.type',
    ]);
    const webhook = {
      type: 'Webhook',
      spec: { type: 'Github', spec: { type: 'Merge', spec: { connectorRef: 'gh' } } },
    };
    expect(codes('trigger', trigger({ source: webhook })).map((d) => d.path.join('.'))).toEqual([
      'trigger.source.spec.spec.type',
    ]);
  });

  it('requires the scope: a trigger without orgIdentifier is refused', () => {
    expect(codes('trigger', { trigger: { identifier: 't', projectIdentifier: 'web' } }).map((d) => d.code)).toEqual([
      'missing-field',
    ]);
  });
});

describe('template stubs', () => {
  it('takes a template without a spec (the platform stores stubs), but checks one that has it', () => {
    expect(codes('template', template({ type: 'Stage' }))).toEqual([]);
    expect(codes('template', template({ type: 'Stage', spec: {} })).map((d) => d.path.join('.'))).toEqual([
      'template.spec.type',
    ]);
  });
});

describe('service, environment and infrastructure documents', () => {
  it('takes a service with any spec, and refuses a deployment type the platform does not have', () => {
    const service = (type: string) => ({
      service: {
        name: 'api',
        identifier: 'api',
        ...scope,
        serviceDefinition: { type, spec: { manifests: [], anything: 1 } },
      },
    });
    expect(codes('service', service('Kubernetes'))).toEqual([]);
    expect(codes('service', service('Kubernetess')).map((d) => d.path.join('.'))).toEqual([
      'service.serviceDefinition.type',
    ]);
  });

  it('requires an environment type of Production or PreProduction', () => {
    const environment = (type?: string) => ({
      environment: { name: 'prod', identifier: 'prod', ...(type ? { type } : {}), ...scope },
    });
    expect(codes('environment', environment('PreProduction'))).toEqual([]);
    expect(codes('environment', environment('Staging')).map((d) => d.code)).toEqual(['invalid-value']);
    expect(codes('environment', environment()).map((d) => d.code)).toEqual(['missing-field']);
  });

  it('checks an infrastructure spec by its type, as a Deployment stage would inline', () => {
    const infrastructure = (spec: Record<string, unknown>) => ({
      infrastructureDefinition: {
        name: 'k8s',
        identifier: 'k8s',
        environmentRef: 'prod',
        deploymentType: 'Kubernetes',
        type: 'KubernetesDirect',
        spec,
        ...scope,
      },
    });
    expect(
      codes('infrastructure', infrastructure({ connectorRef: 'cluster', namespace: 'web', releaseName: 'r' })),
    ).toEqual([]);
    expect(
      codes('infrastructure', infrastructure({ namespace: 'web', releaseName: 'r' })).map((d) => d.path.join('.')),
    ).toEqual(['infrastructureDefinition.spec.connectorRef']);
  });

  it('requires what the platform requires of an infrastructure: its environment, deployment type, type and spec', () => {
    const found = codes('infrastructure', { infrastructureDefinition: { name: 'k8s', identifier: 'k8s' } }).map((d) =>
      d.path.at(-1),
    );
    expect(found.sort()).toEqual(['deploymentType', 'environmentRef', 'spec', 'type']);
  });
});

describe('input set documents', () => {
  it('takes an input set naming its pipeline, and an overlay naming input sets', () => {
    expect(
      codes('inputSet', {
        inputSet: { name: 'prod', identifier: 'prod', ...scope, pipeline: { identifier: 'deploy', variables: [] } },
      }),
    ).toEqual([]);
    expect(
      codes('overlayInputSet', {
        overlayInputSet: {
          name: 'o',
          identifier: 'o',
          ...scope,
          pipelineIdentifier: 'deploy',
          inputSetReferences: ['a', 'b'],
        },
      }),
    ).toEqual([]);
  });

  it('refuses an input set without its pipeline, and an overlay without input sets', () => {
    expect(
      codes('inputSet', { inputSet: { name: 'prod', identifier: 'prod', ...scope } }).map((d) => d.path.join('.')),
    ).toEqual(['inputSet.pipeline']);
    expect(
      codes('overlayInputSet', {
        overlayInputSet: { name: 'o', identifier: 'o', ...scope, pipelineIdentifier: 'deploy' },
      }).map((d) => d.path.join('.')),
    ).toEqual(['overlayInputSet.inputSetReferences']);
  });
});

describe('a missing field whose values are a fixed list', () => {
  it('is reported as missing, with the values it takes (never as "undefined is not one of")', () => {
    const [problem] = codes('environment', { environment: { name: 'prod', identifier: 'prod', ...scope } });
    expect(problem).toMatchObject({
      code: 'missing-field',
      message: 'environment.type is required (one of Production, PreProduction)',
    });
  });
});
