/**
 * Type tests for the builder families, checked by `npm run typecheck` (tsc over test/): each
 * `@ts-expect-error` must meet an error, so a type that grows too loose fails the build.
 */
import { expectTypeOf } from 'vitest';
import { catalogStep } from '../../src/dsl/catalog/catalog-step.js';
import {
  approval,
  asgBlueGreenDeploy,
  ci,
  connectors,
  custom,
  deployment,
  iacmTerraformPlugin,
  input,
  k8sBGSwapServices,
  k8sRollingDeploy,
  parallel,
  pipeline,
  pipelineStage,
  run,
  securityTests,
  shell,
  step,
  stepGroup,
  terraformPlan,
  wait,
  type StepBuilder,
} from 'pipewright';

const infra = { connector: 'cluster', namespace: 'web' };
const deploy = deployment({ identifier: 'prod', service: 's', environment: 'e', infrastructure: infra });
const build = ci({ identifier: 'build', runtime: 'Cloud', platform: { os: 'Linux', arch: 'Amd64' } });

// --- every catalogue step is a typed builder named after its type -------------------------------------
const plan = terraformPlan({
  identifier: 'plan',
  provisionerIdentifier: 'infra',
  configuration: {
    command: 'Apply',
    configFiles: { store: { type: 'Github', spec: { connectorRef: 'gh', gitFetchType: 'Branch', branch: 'main' } } },
    secretManagerRef: 'harnessSecretManager',
  },
});
const configuration = {
  configFiles: { store: { type: 'Harness' as const, spec: { file: '/terraform/main.tf' } } },
  secretManagerRef: 'vault',
};
expectTypeOf(plan).toEqualTypeOf<StepBuilder<never, 'TerraformPlan'>>();
expectTypeOf(k8sBGSwapServices({ identifier: 'swap' })).toEqualTypeOf<StepBuilder<never, 'K8sBGSwapServices'>>();
expectTypeOf(iacmTerraformPlugin).toBeFunction();
expectTypeOf(asgBlueGreenDeploy).toBeFunction();

// Required fields are required, enums are unions, expressions are accepted where the platform takes them.
// @ts-expect-error: provisionerIdentifier is required
terraformPlan({ identifier: 'plan', configuration: { command: 'Apply' } });
terraformPlan({
  identifier: 'plan',
  provisionerIdentifier: 'x',
  // @ts-expect-error: command is Apply or Destroy
  configuration: { ...configuration, command: 'Remove' },
});
terraformPlan({
  identifier: 'plan',
  provisionerIdentifier: input(),
  configuration: { ...configuration, command: 'Apply' },
});
// @ts-expect-error: a misspelt option is a type error (and an unknown-option error at run time)
k8sRollingDeploy({ identifier: 'roll', skipDryRn: true });
// Fields the published schema does not list go under `spec`, as they are.
k8sRollingDeploy({ identifier: 'roll', spec: { someNewField: true } });

// --- placement: a stage's .step() accepts only what its stage type can run --------------------------
deploy.step(k8sRollingDeploy({ identifier: 'roll' }), shell({ identifier: 'sh', script: 'echo' }));
build.step(run({ identifier: 'test', command: 'npm test' }));
// @ts-expect-error: a ShellScript step cannot run in a CI stage
build.step(shell({ identifier: 'sh', script: 'echo' }));
// @ts-expect-error: a K8sRollingDeploy step cannot run in a CI stage
build.step(k8sRollingDeploy({ identifier: 'roll' }));
// @ts-expect-error: a K8sRollingDeploy step cannot run in a Custom stage
custom({ identifier: 'c' }).step(k8sRollingDeploy({ identifier: 'roll' }));
// @ts-expect-error: the check looks at every argument, not only the first
approval({ identifier: 'a' }).step(wait({ identifier: 'w', duration: '1m' }), k8sRollingDeploy({ identifier: 'roll' }));
// Step groups and parallel blocks carry the types inside them.
// @ts-expect-error: the group holds a K8sRollingDeploy step
custom({ identifier: 'c' }).step(stepGroup({ identifier: 'g', steps: [k8sRollingDeploy({ identifier: 'roll' })] }));
// @ts-expect-error: the parallel block holds a ShellScript step
build.step(parallel(run({ identifier: 'a', command: 'x' }), shell({ identifier: 'b', script: 'x' })));
// Untyped steps stay allowed everywhere; the runtime rule checks them.
build.step(step({ identifier: 'x', type: 'ShellScript', spec: {} }));
// Catalogue stages are typed too.
securityTests({ identifier: 'scan' });

// pipeline().step() checks against the last stage added.
pipeline({ identifier: 'p', project: 'web' })
  .stage(deploy)
  .step(k8sRollingDeploy({ identifier: 'roll' }));
pipeline({ identifier: 'p', project: 'web' })
  .stage(deploy, build)
  // @ts-expect-error: the last stage is a CI stage
  .step(k8sRollingDeploy({ identifier: 'roll' }));

// --- outputs are typed from the outputs given ---------------------------------------------------------
const probe = shell({ identifier: 'probe', script: 'echo', outputs: ['VERSION'] });
probe.output('VERSION');
// @ts-expect-error: TYPO is not an output of this step
probe.output('TYPO');
const tests = run({ identifier: 'tests', command: 'x', outputVariables: [{ name: 'COVERAGE' }] });
tests.output('COVERAGE');
// @ts-expect-error: run() outputs come from outputVariables
tests.output('TYPO');
// @ts-expect-error: a step without outputs has none
plan.output('anything');

// --- other builder families -----------------------------------------------------------------------
// @ts-expect-error: enviroment is not an option of deployment()
deployment({ identifier: 'x', service: 's', enviroment: 'prod', infrastructure: infra });
// @ts-expect-error: a pipeline needs a project
pipeline({ identifier: 'p' });
// @ts-expect-error: scipt is not an option of shell()
shell({ identifier: 's', scipt: 'echo' });
const child = pipeline({ identifier: 'child', project: 'web' });
pipelineStage({ identifier: 'chain', org: 'default', project: 'web', pipeline: child });
expectTypeOf(shell({ identifier: 's', script: 'x' }).withIdentifier('again')).toEqualTypeOf<
  StepBuilder<never, 'ShellScript'>
>();
stepGroup({
  identifier: 'canary',
  steps: [k8sRollingDeploy({ identifier: 'r' })],
  rollbackSteps: [k8sRollingDeploy({ identifier: 'rb' })],
});
// A builder for a type of your own, typed from the catalogue.
expectTypeOf(catalogStep('Wait')).toBeFunction();

// --- connectors ----------------------------------------------------------------------------------------
const auth = {
  type: 'Http',
  spec: { type: 'UsernameToken', spec: { username: 'bot', tokenRef: 'gh_token' } },
} as const;
connectors.github({ identifier: 'gh', type: 'Repo', url: 'https://github.com/acme/web', authentication: auth });
// @ts-expect-error: a GitHub connector is an Account, Repo or Project connector
connectors.github({ identifier: 'gh', type: 'Org', url: 'https://github.com/acme', authentication: auth });
// @ts-expect-error: url is required
connectors.github({ identifier: 'gh', type: 'Repo', authentication: auth });
connectors.dockerRegistry({ identifier: 'hub' });
// The platform (not a delegate) connecting.
connectors.github({
  identifier: 'gh',
  type: 'Repo',
  url: 'https://github.com/acme/web',
  authentication: auth,
  executeOnDelegate: false,
});
// A case of the discriminator's enum that adds no fields (the schema has no `then` for it).
connectors.httpHelmRepo({
  identifier: 'charts',
  helmRepoUrl: 'https://charts.example.com',
  auth: { type: 'Anonymous' },
});
// @ts-expect-error: HttpHelmRepo auth is UsernamePassword or Anonymous
connectors.httpHelmRepo({ identifier: 'charts', helmRepoUrl: 'https://charts.example.com', auth: { type: 'Token' } });
connectors.github({
  identifier: 'gh',
  // @ts-expect-error: a description is text, which the platform requires (an empty one is null, which it refuses)
  description: null,
  type: 'Repo',
  url: 'https://github.com/acme/web',
  authentication: auth,
});

// --- typed references across stages and to pipeline variables ----------------------------------------
const release = pipeline({
  identifier: 'release',
  project: 'web',
  variables: { version: { type: 'String', value: '1.0' } },
});
release.variable('version');
// @ts-expect-error: the pipeline declares no variable "verison"
release.variable('verison');
release.variables({ region: { type: 'String', value: 'eu' } }).variable('region');
// @ts-expect-error: a misspelt pipeline option is still a type error with variables declared
pipeline({ identifier: 'p', projet: 'web', variables: { a: { type: 'String', value: 'x' } } });
const buildStage = custom({ identifier: 'build' }).step(probe);
buildStage.output(probe, 'VERSION');
// @ts-expect-error: VERSON is not an output of the probe step
buildStage.output(probe, 'VERSON');
