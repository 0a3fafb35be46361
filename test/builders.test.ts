import { describe, expect, expectTypeOf, it } from 'vitest';
import { lower } from '../src/ir/lower.js';
import {
  connectors,
  deployment,
  expr,
  input,
  pipeline,
  project,
  shell,
  stage,
  step,
  type StepBuilder,
} from 'pipewright';

const build = (resource: { toDocument(): unknown }) => resource.toDocument();

const k8s = () =>
  deployment({
    identifier: 'prod',
    service: 'web',
    environment: 'production',
    infrastructure: { connector: 'cluster', namespace: 'web' },
  });

describe('pipeline().stage().step()', () => {
  it('adds the step to the last stage added', () => {
    const doc = build(
      pipeline({ identifier: 'deploy', project: 'web' })
        .stage(k8s())
        .stage(stage({ identifier: 'after', type: 'Custom', spec: {} }))
        .step(step({ identifier: 'wait', type: 'Wait', spec: { duration: '1m' } })),
    ) as any;
    expect(doc.pipeline.stages[0].stage.spec.execution.steps).toEqual([]);
    expect(doc.pipeline.stages[1].stage.spec.execution.steps).toEqual([
      { step: { type: 'Wait', name: 'wait', identifier: 'wait', spec: { duration: '1m' } } },
    ]);
  });

  it('builds the whole document with the platform defaults', () => {
    const doc = build(
      pipeline({ identifier: 'deploy', name: 'Deploy', project: 'web', tags: ['critical'] })
        .stage(k8s().failureStrategies({ action: 'StageRollback' }))
        .step(shell({ identifier: 'echo', script: 'echo hi', timeout: '10m' })),
    );
    expect(doc).toEqual({
      pipeline: {
        name: 'Deploy',
        identifier: 'deploy',
        projectIdentifier: 'web',
        orgIdentifier: 'default',
        tags: { critical: '' },
        stages: [
          {
            stage: {
              name: 'prod',
              identifier: 'prod',
              type: 'Deployment',
              spec: {
                serviceConfig: {
                  serviceRef: 'web',
                  serviceDefinition: { type: 'Kubernetes', spec: { variables: [] } },
                },
                infrastructure: {
                  environmentRef: 'production',
                  infrastructureDefinition: {
                    type: 'KubernetesDirect',
                    spec: { connectorRef: 'cluster', namespace: 'web', releaseName: 'release-<+INFRA_KEY>' },
                  },
                  allowSimultaneousDeployments: false,
                },
                execution: {
                  steps: [
                    {
                      step: {
                        type: 'ShellScript',
                        name: 'echo',
                        identifier: 'echo',
                        spec: {
                          shell: 'Bash',
                          onDelegate: true,
                          source: { type: 'Inline', spec: { script: 'echo hi' } },
                        },
                        timeout: '10m',
                      },
                    },
                  ],
                  rollbackSteps: [],
                },
              },
              failureStrategies: [{ onFailure: { errors: ['AllErrors'], action: { type: 'StageRollback' } } }],
            },
          },
        ],
      },
    });
  });

  it('refuses .step() before any stage, naming the pipeline', () => {
    expect(() => pipeline({ identifier: 'p', project: 'x' }).step(shell({ identifier: 's', script: 'x' }))).toThrow(
      'pipeline "p".step(): add a stage with .stage() before adding steps',
    );
  });

  it('refuses a non-stage passed to .stage()', () => {
    expect(() =>
      pipeline({ identifier: 'p', project: 'x' }).stage(shell({ identifier: 's', script: 'x' }) as never),
    ).toThrow(/argument 1 is not a stage/);
  });
});

describe('immutability', () => {
  it('never changes a builder: every method returns a new one', () => {
    const base = k8s();
    const withStep = base.step(shell({ identifier: 'a', script: 'a' }));
    expect(withStep).not.toBe(base);
    expect(((lower(base.toNode()) as any).stage as any).spec.execution.steps).toHaveLength(0);
    expect(Object.isFrozen(base)).toBe(true);
  });

  it('lets one stage be reused by two pipelines without aliasing', () => {
    const shared = k8s().step(shell({ identifier: 'common', script: 'true' }));
    const one = pipeline({ identifier: 'one', project: 'x' })
      .stage(shared)
      .step(shell({ identifier: 'only_one', script: 'x' }));
    const two = pipeline({ identifier: 'two', project: 'x' }).stage(shared);
    const stepIds = (p: typeof one) =>
      (build(p) as any).pipeline.stages[0].stage.spec.execution.steps.map((s: any) => s.step.identifier);
    expect(stepIds(one)).toEqual(['common', 'only_one']);
    expect(stepIds(two)).toEqual(['common']);
  });

  it('gives each document its own objects, so editing one output cannot change another', () => {
    const s = shell({ identifier: 'x', script: 'x', env: { A: '1' } });
    const a = build(pipeline({ identifier: 'a', project: 'p' }).stage(k8s()).step(s)) as any;
    const b = build(pipeline({ identifier: 'b', project: 'p' }).stage(k8s()).step(s)) as any;
    a.pipeline.stages[0].stage.spec.execution.steps[0].step.spec.environmentVariables[0].value = 'changed';
    expect(b.pipeline.stages[0].stage.spec.execution.steps[0].step.spec.environmentVariables[0].value).toBe('1');
  });
});

describe('$if and $call', () => {
  it('applies $if only when the condition holds', () => {
    const extra = shell({ identifier: 'extra', script: 'x' });
    const count = (prod: boolean) =>
      (
        (
          (
            lower(
              k8s()
                .$if(prod, (s) => s.step(extra))
                .toNode(),
            ) as any
          ).stage as any
        ).spec.execution.steps as unknown[]
      ).length;
    expect(count(true)).toBe(1);
    expect(count(false)).toBe(0);
  });

  it('passes the builder through $call', () => {
    const withSmoke = <T extends { step(...s: StepBuilder[]): T }>(b: T) =>
      b.step(shell({ identifier: 'smoke', script: 'x' }));
    const stageDoc = (lower(k8s().$call(withSmoke).toNode()) as any).stage as any;
    expect(stageDoc.spec.execution.steps[0].step.identifier).toBe('smoke');
  });
});

describe('shell()', () => {
  it('maps env and outputs to typed variable lists', () => {
    const s = shell({ identifier: 's', script: 'x', env: { HOST: expr.pipeline.name }, outputs: ['VERSION'] });
    const spec = (lower(s.toNode()) as any).step.spec;
    expect(spec.environmentVariables).toEqual([{ name: 'HOST', type: 'String', value: '<+pipeline.name>' }]);
    expect(spec.outputVariables).toEqual([{ name: 'VERSION', type: 'String', value: 'VERSION' }]);
  });

  it('takes outputs as { name: value }: another variable or an expression, names typed the same', () => {
    const s = shell({
      identifier: 'build',
      script: 'x',
      outputs: { VERSION: 'APP_VERSION', URL: expr`https://${expr.env.name}.example.com` },
    });
    const spec = (lower(s.toNode()) as any).step.spec;
    expect(spec.outputVariables).toEqual([
      { name: 'VERSION', type: 'String', value: 'APP_VERSION' },
      { name: 'URL', type: 'String', value: 'https://<+env.name>.example.com' },
    ]);
    expect(String(s.output('URL'))).toBe('<+execution.steps.build.output.outputVariables.URL>');
    expectTypeOf(s.output).parameter(0).toEqualTypeOf<'VERSION' | 'URL'>();
    // @ts-expect-error: not a declared output
    s.output('APP_VERSION');
  });

  it('types output references by the declared outputs', () => {
    const s = shell({ identifier: 'build', script: 'x', outputs: ['VERSION', 'SHA'] });
    expect(String(s.output('VERSION'))).toBe('<+execution.steps.build.output.outputVariables.VERSION>');
    expectTypeOf(s.output).parameter(0).toEqualTypeOf<'VERSION' | 'SHA'>();
    // @ts-expect-error: not a declared output
    s.output('OTHER');
  });
});

describe('project() and connectors', () => {
  it('emits only what was given, with org default', () => {
    expect(build(project({ identifier: 'p' }))).toEqual({
      project: { name: 'p', identifier: 'p', orgIdentifier: 'default' },
    });
  });

  it('scopes a connector to its project builder and records the reference', () => {
    const p = project({ identifier: 'p', org: 'eng' });
    const c = connectors.dockerRegistry({ identifier: 'hub', project: p });
    const node = c.toNode();
    const doc = lower(node) as any;
    expect(doc.connector.orgIdentifier).toBe('eng');
    expect(doc.connector.projectIdentifier).toBe('p');
    expect(doc.connector.spec).toEqual({
      dockerRegistryUrl: 'https://index.docker.io/v2/',
      providerType: 'DockerHub',
      auth: { type: 'Anonymous' },
    });
    expect(node.references.map((r) => r.target)).toEqual([p]);
  });

  it('writes a scoped connectorRef for connector builders', () => {
    const orgLevel = connectors.dockerRegistry({ identifier: 'hub', org: 'default' });
    const accountLevel = connectors.dockerRegistry({ identifier: 'acct', account: true });
    const ref = (c: typeof orgLevel) =>
      (
        (
          lower(
            deployment({
              identifier: 'd',
              service: 's',
              environment: 'e',
              infrastructure: { connector: c, namespace: 'n' },
            }).toNode(),
          ) as any
        ).stage as any
      ).spec.infrastructure.infrastructureDefinition.spec.connectorRef;
    expect(ref(orgLevel)).toBe('org.hub');
    expect(ref(accountLevel)).toBe('account.acct');
    expect(ref(connectors.dockerRegistry({ identifier: 'local', project: 'web' }))).toBe('local');
  });

  it('writes UsernamePassword auth with a secret reference', () => {
    const doc = build(
      connectors.dockerRegistry({
        identifier: 'harbor',
        provider: 'Harbor',
        url: 'https://harbor.example.com/v2/',
        auth: { username: 'ci', passwordRef: 'harbor_pw' },
      }),
    ) as any;
    expect(doc.connector.spec.auth).toEqual({
      type: 'UsernamePassword',
      spec: { username: 'ci', passwordRef: 'harbor_pw' },
    });
  });
});

describe('call sites', () => {
  it('remembers the line of the user code that created a builder', () => {
    const s = shell({ identifier: 's', script: 'x' });
    // The builder was made two lines above this one.
    const line = Number(new Error().stack!.split('\n')[1]!.match(/:(\d+):\d+\)?$/)![1]) - 2;
    expect(s.site.location).toEqual({ file: 'test/builders.test.ts', line, column: expect.any(Number) });
  });
});
