import { describe, expect, it } from 'vitest';
import {
  deployment,
  expr,
  harnessApproval,
  helmDeploy,
  input,
  k8sApply,
  k8sBlueGreenDeploy,
  k8sCanaryDeploy,
  k8sRollingDeploy,
  k8sRollingRollback,
  parallel,
  pipeline,
  plugin,
  run,
  shell,
  step,
  stepGroup,
  wait,
} from 'pipewright';
import { fixture, roundTrip } from './support/fixtures.js';
import YAML from 'yaml';
import { toYaml } from '../src/yaml/emit-yaml.js';

/** Each test rebuilds a corpus fixture with the typed builders: builder -> document -> YAML -> data equals the fixture. */
const payments = (identifier: string, name: string) => pipeline({ identifier, name, project: 'payments' });
const to = (environment: string, infrastructure: string, service = 'payments_api') => ({
  deploymentType: 'Kubernetes' as const,
  service,
  environment,
  deployToAll: false,
  infrastructureDefinitions: [infrastructure],
});
const stageRollback = [{ action: 'StageRollback' as const }];
const rolling = (identifier = 'rolling', name = 'Rolling') =>
  k8sRollingDeploy({ identifier, name, skipDryRun: false, timeout: '10m' });

describe('Deployment builders', () => {
  it('deployment() in the service/environment form, with K8sRollingDeploy and K8sRollingRollback', async () => {
    const built = payments('api_deploy', 'api deploy').stage(
      deployment({
        identifier: 'deploy_dev',
        name: 'Deploy to dev',
        ...to('dev', 'dev_cluster'),
        failureStrategies: stageRollback,
      })
        .step(
          k8sRollingDeploy({
            identifier: 'rolling_deployment',
            name: 'Rolling deployment',
            skipDryRun: false,
            pruningEnabled: false,
            timeout: '10m',
          }),
        )
        .rollbackStep(
          k8sRollingRollback({
            identifier: 'rolling_rollback',
            name: 'Rolling rollback',
            pruningEnabled: false,
            timeout: '10m',
          }),
        ),
    );
    expect(roundTrip(built)).toEqual(await fixture('cd-k8s-rolling'));
  });

  it('the older serviceConfig/infrastructure form stays as it was, all runtime inputs', async () => {
    const built = payments('checkout_deploy', 'checkout deploy')
      .tags({})
      .stage(
        deployment({
          identifier: 'deploy',
          name: 'Deploy',
          description: '',
          service: input(),
          environment: input(),
          infrastructure: { connector: input(), namespace: input(), releaseName: expr`release-${expr.infra.key}` },
          tags: {},
          failureStrategies: stageRollback,
        }).step(
          shell({
            identifier: 'smoke_test',
            name: 'Smoke test',
            script: 'curl -fsS https://checkout.example.com/health',
            env: {},
            outputs: [],
            executionTarget: {},
            timeout: '10m',
          }),
        ),
      );
    expect(roundTrip(built)).toEqual(await fixture('cd-k8s-rolling-service-config'));
  });

  it('k8sCanaryDeploy() in step groups, with a generic step() for K8sCanaryDelete', async () => {
    const canaryDelete = (identifier: string) =>
      step({ identifier, name: 'Canary Delete', type: 'K8sCanaryDelete', spec: {}, timeout: '10m' });
    const built = payments('api_canary', 'api canary').stage(
      deployment({
        identifier: 'canary_prod',
        name: 'Canary to prod',
        ...to('prod', 'prod_eu'),
        failureStrategies: stageRollback,
      })
        .step(
          stepGroup({ identifier: 'canary_deployment', name: 'Canary Deployment' }).step(
            k8sCanaryDeploy({
              identifier: 'canary_deploy',
              name: 'Canary Deployment',
              instanceSelection: { type: 'Count', spec: { count: 1 } },
              skipDryRun: false,
              timeout: '10m',
            }),
            canaryDelete('canary_delete'),
          ),
          stepGroup({
            identifier: 'primary_deployment',
            name: 'Primary Deployment',
            steps: [rolling('rolling_deploy', 'Rolling Deployment')],
          }),
        )
        .rollbackStep(
          canaryDelete('rollback_canary_delete'),
          k8sRollingRollback({ identifier: 'rolling_rollback', name: 'Rolling Rollback', timeout: '10m' }),
        ),
    );
    // k8sRollingRollback() with no spec fields still emits `spec: {}`, as the platform writes it.
    expect(roundTrip(built)).toEqual(await fixture('cd-k8s-canary'));
  });

  it('k8sBlueGreenDeploy() with a HarnessApproval between stage and swap', async () => {
    const swap = (identifier: string) =>
      step({
        identifier,
        name: 'Swap primary with stage service',
        type: 'K8sBGSwapServices',
        spec: { skipDryRun: false },
        timeout: '10m',
      });
    const built = payments('web_blue_green', 'web blue green').stage(
      deployment({
        identifier: 'bg_prod',
        name: 'Blue green to prod',
        ...to('prod', 'prod_eu', 'payments_web'),
        failureStrategies: stageRollback,
      })
        .step(
          k8sBlueGreenDeploy({
            identifier: 'stage_deployment',
            name: 'Stage Deployment',
            skipDryRun: false,
            pruningEnabled: false,
            timeout: '10m',
          }),
          harnessApproval({
            identifier: 'check_stage',
            name: 'Check the stage version',
            approvalMessage: 'Does the stage version look right?',
            includePipelineExecutionHistory: true,
            approvers: { userGroups: ['web_oncall'], minimumCount: 1, disallowPipelineExecutor: false },
            timeout: '1d',
          }),
          swap('bg_swap_services'),
        )
        .rollbackStep(swap('rollback_bg_swap_services')),
    );
    expect(roundTrip(built)).toEqual(await fixture('cd-k8s-blue-green'));
  });

  it('k8sApply() and wait()', async () => {
    const built = payments('ledger_migrate_deploy', 'ledger migrate and deploy').stage(
      deployment({ identifier: 'deploy_ledger', name: 'Deploy ledger', ...to('staging', 'staging_cluster', 'ledger') })
        .step(
          k8sApply({
            identifier: 'migrations',
            name: 'Run migrations job',
            filePaths: ['jobs/migrate.yaml'],
            skipDryRun: false,
            skipSteadyStateCheck: false,
            timeout: '15m',
          }),
          wait({ identifier: 'warm_caches', name: 'Let caches warm', duration: '2m' }),
          k8sRollingDeploy({
            identifier: 'rolling_deployment',
            name: 'Rolling deployment',
            skipDryRun: false,
            timeout: '10m',
          }),
        )
        .rollbackStep(k8sRollingRollback({ identifier: 'rolling_rollback', name: 'Rolling rollback', timeout: '10m' })),
    );
    expect(roundTrip(built)).toEqual(await fixture('cd-k8s-apply-migrations'));
  });

  it('helmDeploy() with serviceInputs', async () => {
    const built = payments('gateway_helm', 'gateway helm').stage(
      deployment({
        identifier: 'helm_deploy',
        name: 'Helm deploy',
        ...to('qa', 'qa_cluster', 'gateway'),
        deploymentType: 'NativeHelm',
        serviceInputs: {
          serviceDefinition: { type: 'NativeHelm', spec: { artifacts: { primary: { primaryArtifactRef: input() } } } },
        },
      })
        .step(
          helmDeploy({
            identifier: 'helm_deployment',
            name: 'Helm Deployment',
            ignoreReleaseHistFailStatus: false,
            spec: { skipDryRun: false },
            timeout: '10m',
          }),
        )
        .rollbackStep(
          step({ identifier: 'helm_rollback', name: 'Helm Rollback', type: 'HelmRollback', spec: {}, timeout: '10m' }),
        ),
    );
    expect(roundTrip(built)).toEqual(await fixture('cd-helm-native'));
  });

  it('parallel() stages, and a service reused from an earlier stage', async () => {
    const rollout = () =>
      k8sRollingDeploy({ identifier: 'rollout', name: 'Rollout', skipDryRun: false, timeout: '10m' });
    const region = (identifier: string, name: string, infrastructure: string) =>
      deployment({ identifier, name, ...to('prod', infrastructure), service: { useFromStage: 'deploy_eu' } }).step(
        rollout(),
      );
    const built = payments('regional_rollout', 'regional rollout')
      .stage(deployment({ identifier: 'deploy_eu', name: 'Deploy EU', ...to('prod', 'prod_eu') }).step(rollout()))
      .stage(parallel(region('deploy_us', 'Deploy US', 'prod_us'), region('deploy_apac', 'Deploy APAC', 'prod_apac')));
    expect(roundTrip(built)).toEqual(await fixture('cd-parallel-environments'));
  });

  it('input() in every kind of place: pipeline timeout and variables, refs, booleans, lists, failure strategies', async () => {
    const built = pipeline({
      identifier: 'deploy_anything',
      name: 'deploy anything',
      project: 'payments',
      timeout: input().default('1h'),
      variables: {
        environment: {
          type: 'String',
          description: 'Where to deploy',
          required: true,
          value: input().allowedValues('dev', 'qa', 'prod'),
        },
        replicas: { type: 'Number', value: input().default(2) },
        ticket: { type: 'String', value: input().regex('^OPS-[0-9]+$').executionInput() },
      },
    }).stage(
      deployment({
        identifier: 'deploy',
        name: 'Deploy',
        deploymentType: 'Kubernetes',
        service: input(),
        serviceInputs: input(),
        environment: input().selectOneFrom('dev', 'qa', 'prod'),
        deployToAll: input(),
        environmentInputs: input(),
        infrastructureDefinitions: input(),
      })
        .step(k8sRollingDeploy({ identifier: 'rolling', name: 'Rolling', skipDryRun: input(), timeout: input() }))
        .rollbackStep(k8sRollingRollback({ identifier: 'rollback', name: 'Rollback', timeout: '10m' })),
    );
    const document = roundTrip(built) as any;
    // delegateSelectors and failureStrategies as a whole runtime input have no typed option (the stage gets the
    // failure strategies deployment() writes when none are given); the rest matches.
    const expected = (await fixture('cd-runtime-inputs')) as any;
    delete expected.pipeline.stages[0].stage.delegateSelectors;
    expected.pipeline.stages[0].stage.failureStrategies = [
      { onFailure: { errors: ['AllErrors'], action: { type: 'StageRollback' } } },
    ];
    expect(document).toEqual(expected);
  });

  it('a containerised stepGroup() runs Run and Plugin steps in a Deployment stage', async () => {
    const built = payments('deploy_with_checks', 'deploy with checks').stage(
      deployment({ identifier: 'deploy', name: 'Deploy', ...to('staging', 'staging_cluster') })
        .step(
          rolling(),
          stepGroup({
            identifier: 'post_deploy_checks',
            name: 'Post deploy checks',
            containerInfra: { connector: 'org.build_cluster', namespace: 'deploy-checks' },
            sharedPaths: ['/shared'],
          }).step(
            run({
              identifier: 'contract_tests',
              name: 'API contract tests',
              connectorRef: 'account.dockerhub',
              image: 'payments/contract-tests:latest',
              shell: 'Sh',
              command: 'run-contract-tests --base-url https://staging.payments.example.com',
            }),
            plugin({
              identifier: 'report_slack',
              name: 'Report to Slack',
              connectorRef: 'account.dockerhub',
              image: 'plugins/slack',
              settings: { webhook: expr.secret('slack_webhook') },
            }),
          ),
        )
        .rollbackStep(k8sRollingRollback({ identifier: 'rollback', name: 'Rollback', timeout: '10m' })),
    );
    expect(roundTrip(built)).toEqual(await fixture('cd-containerised-step-group'));
  });
});

describe('deployment(): the older serviceConfig/infrastructure form given whole', () => {
  // The legacy shapes the shorthand cannot say (issue 27): an inline service with artifacts and manifests,
  // an inline environment, stage overrides, and a later stage deploying the first one's service and infrastructure.
  const expected = YAML.parse(`
pipeline:
  name: legacy
  identifier: legacy
  projectIdentifier: shop
  orgIdentifier: default
  stages:
    - stage:
        name: dev
        identifier: dev
        type: Deployment
        failureStrategies: [{ onFailure: { errors: [AllErrors], action: { type: StageRollback } } }]
        spec:
          serviceConfig:
            service: { name: cart, identifier: cart }
            serviceDefinition:
              type: Kubernetes
              spec:
                artifacts:
                  primary:
                    type: DockerRegistry
                    spec: { connectorRef: dockerhub, imagePath: acme/cart, tag: <+input> }
                manifests:
                  - manifest:
                      identifier: k8s
                      type: K8sManifest
                      spec:
                        store:
                          type: Github
                          spec: { connectorRef: github, gitFetchType: Branch, branch: main, paths: [k8s/] }
                variables: []
          infrastructure:
            environment: { name: dev, identifier: dev, type: PreProduction }
            infrastructureDefinition:
              type: KubernetesDirect
              spec: { connectorRef: cluster, namespace: cart, releaseName: release-<+INFRA_KEY> }
            allowSimultaneousDeployments: false
          execution:
            steps:
              - step: { type: K8sRollingDeploy, name: roll, identifier: roll, spec: { skipDryRun: false } }
            rollbackSteps: []
    - stage:
        name: qa
        identifier: qa
        type: Deployment
        failureStrategies: [{ onFailure: { errors: [AllErrors], action: { type: StageRollback } } }]
        spec:
          serviceConfig:
            useFromStage: { stage: dev }
            stageOverrides:
              variables: [{ name: replicas, type: String, value: "2" }]
          infrastructure:
            environmentRef: qa
            useFromStage: { stage: dev }
          execution:
            steps:
              - step: { type: K8sRollingDeploy, name: roll, identifier: roll, spec: { skipDryRun: false } }
            rollbackSteps: []
`);

  it('writes serviceConfig and infrastructure as given, in the platform order, with the steps', () => {
    const roll = k8sRollingDeploy({ identifier: 'roll', skipDryRun: false });
    const built = pipeline({ identifier: 'legacy', project: 'shop' }).stage(
      deployment({
        identifier: 'dev',
        serviceConfig: {
          service: { name: 'cart', identifier: 'cart' },
          serviceDefinition: {
            type: 'Kubernetes',
            spec: {
              artifacts: {
                primary: {
                  type: 'DockerRegistry',
                  spec: { connectorRef: 'dockerhub', imagePath: 'acme/cart', tag: input() },
                },
              },
              manifests: [
                {
                  manifest: {
                    identifier: 'k8s',
                    type: 'K8sManifest',
                    spec: {
                      store: {
                        type: 'Github',
                        spec: { connectorRef: 'github', gitFetchType: 'Branch', branch: 'main', paths: ['k8s/'] },
                      },
                    },
                  },
                },
              ],
              variables: [],
            },
          },
        },
        infrastructure: {
          environment: { name: 'dev', identifier: 'dev', type: 'PreProduction' },
          infrastructureDefinition: {
            type: 'KubernetesDirect',
            spec: { connectorRef: 'cluster', namespace: 'cart', releaseName: expr`release-${expr.infra.key}` },
          },
          allowSimultaneousDeployments: false,
        },
        steps: [roll],
      }),
      deployment({
        identifier: 'qa',
        serviceConfig: {
          useFromStage: { stage: 'dev' },
          stageOverrides: { variables: [{ name: 'replicas', type: 'String', value: '2' }] },
        },
        infrastructure: { environmentRef: 'qa', useFromStage: { stage: 'dev' } },
      }).step(roll),
    );
    expect(YAML.parse(toYaml(built.toDocument()), { version: '1.1' })).toEqual(expected);
  });

  it('reports a missing infrastructure at the call, as the other forms report theirs', () => {
    const built = deployment({ identifier: 'dev', serviceConfig: { useFromStage: { stage: 'build' } } } as never);
    expect(built.toNode().issues?.map((issue) => issue.message)).toEqual([expect.stringContaining('infrastructure')]);
  });
});
