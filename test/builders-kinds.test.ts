import { describe, expect, it } from 'vitest';
import { lower } from '../src/ir/lower.js';
import { buildAndValidate } from '../src/compile/build-documents.js';
import {
  deployment,
  environment,
  infrastructure,
  input,
  inputSet,
  overlayInputSet,
  pipeline,
  project,
  service,
  shell,
  stage,
  stepTemplate,
  template,
  trigger,
  type AnyResource,
} from '../src/index.js';

const doc = (resource: AnyResource) => resource.toDocument() as Record<string, Record<string, unknown>>;
const compileAll = (...resources: AnyResource[]) =>
  buildAndValidate(resources.map((resource, index) => ({ resource, file: 'x.ts', exportName: `r${index}` })));

const web = project({ identifier: 'web' });
const deploy = pipeline({ identifier: 'deploy', project: web, variables: { env: input() } }).stage(
  stage({ identifier: 's', type: 'Custom' }).step(shell({ identifier: 'hi', script: 'echo hi' })),
);

describe('builders of the kinds beside pipelines', () => {
  it('service, environment and infrastructure: the documents the platform takes, the infrastructure in its environment', () => {
    const api = service({ identifier: 'api', project: web, deploymentType: 'Kubernetes', spec: { manifests: [] } });
    const prod = environment({ identifier: 'prod', project: web, type: 'Production', variables: { region: 'eu' } });
    const k8s = infrastructure({
      identifier: 'k8s',
      environment: prod,
      deploymentType: 'Kubernetes',
      type: 'KubernetesDirect',
      spec: { connectorRef: 'c', namespace: 'n', releaseName: 'r' },
    });
    expect(doc(api)).toEqual({
      service: {
        name: 'api',
        identifier: 'api',
        orgIdentifier: 'default',
        projectIdentifier: 'web',
        serviceDefinition: { type: 'Kubernetes', spec: { manifests: [] } },
      },
    });
    expect(doc(prod).environment).toMatchObject({
      type: 'Production',
      variables: [{ name: 'region', type: 'String', value: 'eu' }],
    });
    expect(doc(k8s).infrastructureDefinition).toMatchObject({
      environmentRef: 'prod',
      orgIdentifier: 'default',
      projectIdentifier: 'web',
    });
    const { diagnostics, documents } = compileAll(web, api, prod, k8s);
    expect(diagnostics).toEqual([]);
    expect(documents.map((d) => d.key.parent)).toEqual([undefined, undefined, undefined, 'prod']);
  });

  it('reports an environment builder that is not compiled, at the infrastructure', () => {
    const prod = environment({ identifier: 'prod', project: 'web', type: 'Production' });
    const k8s = infrastructure({
      identifier: 'k8s',
      environment: prod,
      deploymentType: 'Kubernetes',
      type: 'KubernetesDirect',
      spec: { connectorRef: 'c', namespace: 'n', releaseName: 'r' },
    });
    const found = compileAll(k8s).diagnostics;
    expect(found.map((d) => [d.code, d.path.join('.')])).toEqual([
      ['unresolved-reference', 'infrastructureDefinition.environmentRef'],
    ]);
    expect(found[0]!.message).toBe(
      'references environment "prod" in project default/web, which is not among the compiled resources',
    );
  });

  it("the older form's Kubernetes shorthand writes a service's and an environment's builders as references, checked", () => {
    const api = service({ identifier: 'api', project: web, deploymentType: 'Kubernetes', spec: { manifests: [] } });
    const prod = environment({ identifier: 'prod', project: web, type: 'Production' });
    const older = pipeline({ identifier: 'older', project: web }).stage(
      deployment({
        identifier: 'd',
        service: api,
        environment: prod,
        infrastructure: { connector: 'k8s', namespace: 'n' },
      }).step(shell({ identifier: 'hi', script: 'echo hi' })),
    );
    const spec = (doc(older).pipeline!.stages as never as Array<{ stage: { spec: Record<string, any> } }>)[0]!.stage
      .spec;
    expect(spec.serviceConfig.serviceRef).toBe('api');
    expect(spec.infrastructure.environmentRef).toBe('prod');
    expect(compileAll(web, api, prod, older).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Left out of the compiled resources, each is named where it is referenced.
    const found = compileAll(web, older).diagnostics.filter((d) => d.code === 'unresolved-reference');
    expect(found.map((d) => d.path.join('.'))).toEqual([
      'pipeline.stages.0.stage.spec.serviceConfig.serviceRef',
      'pipeline.stages.0.stage.spec.infrastructure.environmentRef',
    ]);
  });

  it('template.step drops the identity of the step it holds; stepTemplate() takes the template builder', () => {
    const echo = template.step({
      identifier: 'echo',
      project: web,
      versionLabel: 'v1',
      spec: shell({ identifier: 'x', script: 'echo hi' }),
    });
    const body = doc(echo).template!;
    expect(body).toMatchObject({ identifier: 'echo', versionLabel: 'v1', type: 'Step' });
    expect(body.spec).not.toHaveProperty('identifier');
    expect(body.spec).toMatchObject({ type: 'ShellScript' });
    const user = pipeline({ identifier: 'user', project: web }).stage(
      stage({ identifier: 's', type: 'Custom' }).step(stepTemplate({ identifier: 'say', templateRef: echo })),
    );
    const stepDoc = (
      doc(user).pipeline!.stages as never as Array<{
        stage: { spec: { execution: { steps: Array<{ step: unknown }> } } };
      }>
    )[0]!.stage.spec.execution.steps[0]!.step;
    expect(stepDoc).toMatchObject({ template: { templateRef: 'echo', versionLabel: 'v1' } });
    expect(compileAll(web, echo, user).diagnostics).toEqual([]);
    expect(compileAll(web, user).diagnostics.map((d) => d.code)).toEqual(['unresolved-reference']);
  });

  it('an org-level template is referenced as org.<id>', () => {
    const echo = template.step({
      identifier: 'echo',
      org: 'platform',
      versionLabel: 'v2',
      spec: { type: 'Wait', spec: { duration: '1m' } },
    });
    const use = stepTemplate({ identifier: 'say', templateRef: echo });
    const element = lower(use.toNode()) as { step: { template: unknown } };
    expect(element.step.template).toEqual({ templateRef: 'org.echo', versionLabel: 'v2' });
  });

  it('input sets and triggers take their pipeline builder: its scope, a checked reference', () => {
    const values = inputSet({
      identifier: 'prod',
      pipeline: deploy,
      values: { variables: [{ name: 'env', type: 'String', value: 'prod' }] },
    });
    const both = overlayInputSet({ identifier: 'both', pipeline: deploy, inputSets: [values, 'other'] });
    const nightly = trigger.cron({
      identifier: 'nightly',
      pipeline: deploy,
      expression: '0 2 * * *',
      inputSets: [values],
    });
    expect(doc(values).inputSet).toMatchObject({
      orgIdentifier: 'default',
      projectIdentifier: 'web',
      pipeline: { identifier: 'deploy', variables: [{ name: 'env' }] },
    });
    expect(doc(both).overlayInputSet).toMatchObject({
      pipelineIdentifier: 'deploy',
      inputSetReferences: ['prod', 'other'],
    });
    expect(doc(nightly).trigger).toMatchObject({
      pipelineIdentifier: 'deploy',
      inputSetRefs: ['prod'],
      source: { type: 'Scheduled', spec: { type: 'Cron', spec: { expression: '0 2 * * *' } } },
    });
    expect(compileAll(web, deploy, values, both, nightly).diagnostics).toEqual([]);
    const missing = compileAll(web, nightly).diagnostics.map((d) => d.path.join('.'));
    expect(missing.sort()).toEqual(['trigger.inputSetRefs.0', 'trigger.pipelineIdentifier']);
  });

  it('webhook and artifact triggers write the source the platform expects', () => {
    const pr = trigger.webhook({
      identifier: 'pr',
      pipeline: deploy,
      provider: 'Github',
      event: 'PullRequest',
      spec: { connectorRef: 'gh', actions: ['Open'] },
    });
    expect(doc(pr).trigger!.source).toEqual({
      type: 'Webhook',
      spec: { type: 'Github', spec: { type: 'PullRequest', spec: { connectorRef: 'gh', actions: ['Open'] } } },
    });
    const image = trigger.artifact({
      identifier: 'img',
      pipeline: deploy,
      artifactType: 'DockerRegistry',
      spec: { connectorRef: 'hub', imagePath: 'org/app', tag: '<+trigger.artifact.build>' },
    });
    expect(doc(image).trigger!.source).toMatchObject({ type: 'Artifact', spec: { type: 'DockerRegistry' } });
    expect(compileAll(web, deploy, pr, image).diagnostics).toEqual([]);
  });

  it('reports a misspelt option at the call, and a missing required one', () => {
    const typo = environment({ identifier: 'prod', type: 'Production', variabels: {} } as never);
    const found = compileAll(typo).diagnostics;
    expect(found.map((d) => [d.code, d.message, d.hint])).toEqual([
      ['unknown-option', 'environment() has no option "variabels"', 'did you mean "variables"?'],
    ]);
    const noCron = trigger.cron({ identifier: 'n', pipeline: 'deploy', project: 'web' } as never);
    expect(compileAll(noCron).diagnostics.map((d) => d.message)).toContain(
      'trigger.cron() needs the option "expression"',
    );
  });

  it('is immutable: a builder is frozen', () => {
    const api = service({ identifier: 'api' });
    expect(Object.isFrozen(api)).toBe(true);
  });
});

describe('template stubs', () => {
  it('a template without a spec is a stub the platform stores: no spec key', () => {
    expect(doc(template.stage({ identifier: 'stub', project: 'web', versionLabel: 'v1' })).template).not.toHaveProperty(
      'spec',
    );
  });
});

describe('a Deployment stage naming a service, environment and infrastructures by builder', () => {
  const api = service({ identifier: 'api', org: 'platform', deploymentType: 'Kubernetes', spec: {} });
  const prod = environment({ identifier: 'prod', project: web, type: 'Production' });
  const k8s = infrastructure({
    identifier: 'k8s',
    environment: prod,
    deploymentType: 'Kubernetes',
    type: 'KubernetesDirect',
    spec: { connectorRef: 'c', namespace: 'n', releaseName: 'r' },
  });
  const release = pipeline({ identifier: 'release', project: web }).stage(
    deployment({
      identifier: 'd',
      deploymentType: 'Kubernetes',
      service: api,
      environment: prod,
      infrastructureDefinitions: [k8s],
    }).step(shell({ identifier: 'hi', script: 'echo' })),
  );

  it('writes their scoped identifiers', () => {
    const spec = (
      doc(release).pipeline!.stages as never as Array<{ stage: { spec: Record<string, Record<string, unknown>> } }>
    )[0]!.stage.spec;
    expect(spec.service).toEqual({ serviceRef: 'org.api' });
    expect(spec.environment).toEqual({ environmentRef: 'prod', infrastructureDefinitions: [{ identifier: 'k8s' }] });
  });

  it('resolves when they are compiled, and reports each one that is not', () => {
    expect(compileAll(web, api, prod, k8s, release).diagnostics).toEqual([]);
    const missing = compileAll(web, release).diagnostics;
    expect(missing.map((d) => d.code)).toEqual([
      'unresolved-reference',
      'unresolved-reference',
      'unresolved-reference',
    ]);
    expect(missing.map((d) => d.path.slice(-2).join('.')).sort()).toEqual([
      '0.identifier',
      'environment.environmentRef',
      'service.serviceRef',
    ]);
  });
});

describe('templates in use', () => {
  it('stepTemplate() with a template builder writes the inputs given, under the template reference', () => {
    const greet = template.step({
      identifier: 'greet',
      project: 'web',
      versionLabel: 'v3',
      spec: { type: 'ShellScript', timeout: '<+input>', spec: {} },
    });
    const element = lower(
      stepTemplate({
        identifier: 'hi',
        templateRef: greet,
        templateInputs: { type: 'ShellScript', timeout: '5m' },
      }).toNode(),
    ) as { step: { template: unknown } };
    expect(element.step.template).toEqual({
      templateRef: 'greet',
      versionLabel: 'v3',
      templateInputs: { type: 'ShellScript', timeout: '5m' },
    });
  });
});

describe('fields no option names', () => {
  it('otherFields are written as given, after the named ones, and never replace them', () => {
    const pr = trigger.webhook({
      identifier: 'pr',
      pipeline: deploy,
      provider: 'Github',
      event: 'Push',
      spec: { connectorRef: 'gh' },
      otherFields: { encryptedWebhookSecretIdentifier: '', pipelineIdentifier: 'other' },
    });
    expect(doc(pr).trigger).toMatchObject({ encryptedWebhookSecretIdentifier: '', pipelineIdentifier: 'deploy' });
  });
});
