/**
 * Type tests for the builders of the kinds beside pipelines (services, environments, infrastructures,
 * templates, input sets, triggers), checked by `npm run typecheck`: each `@ts-expect-error` must meet an error.
 */
import { expectTypeOf } from 'vitest';
import {
  custom,
  deployment,
  environment,
  infrastructure,
  input,
  stageTemplate,
  inputSet,
  overlayInputSet,
  pipeline,
  service,
  shell,
  stepTemplate,
  template,
  trigger,
  type InfrastructureBuilder,
  type TemplateBuilder,
  type TriggerBuilder,
} from 'pipewright';

const api = service({ identifier: 'api', deploymentType: 'Kubernetes', spec: { manifests: [] } });
// @ts-expect-error: not a deployment type of the platform
service({ identifier: 'api', deploymentType: 'Kubernetess' });
// @ts-expect-error: identifier is required
service({ deploymentType: 'Kubernetes' });

const prod = environment({ identifier: 'prod', type: 'Production', variables: { region: 'eu' } });
// @ts-expect-error: Production or PreProduction only
environment({ identifier: 'prod', type: 'Pre-Production' });
// @ts-expect-error: the platform requires a type
environment({ identifier: 'prod' });

const k8s = infrastructure({
  identifier: 'k8s',
  environment: prod,
  deploymentType: 'Kubernetes',
  type: 'KubernetesDirect',
  spec: { namespace: 'web' },
});
expectTypeOf(k8s).toEqualTypeOf<InfrastructureBuilder>();
infrastructure({
  identifier: 'k8s',
  environment: 'prod',
  deploymentType: 'Kubernetes',
  type: 'KubernetesDirect',
  spec: {},
});
infrastructure({
  identifier: 'k8s',
  // @ts-expect-error: the environment is a builder or an identifier, not a service
  environment: api,
  deploymentType: 'Kubernetes',
  type: 'KubernetesDirect',
  spec: {},
});
// @ts-expect-error: not an infrastructure type
infrastructure({ identifier: 'k8s', environment: prod, deploymentType: 'Kubernetes', type: 'Kubernetes', spec: {} });

const echo = template.step({
  identifier: 'echo',
  versionLabel: 'v1',
  spec: shell({ identifier: 'echo', script: 'echo hi' }),
});
expectTypeOf(echo.templateType).toEqualTypeOf<'Step'>();
expectTypeOf(echo).toExtend<TemplateBuilder<'Step', unknown>>();
template.stage({ identifier: 'build', versionLabel: 'v1', spec: { type: 'Custom', spec: {} } });
// @ts-expect-error: a version label is required
template.step({ identifier: 'echo', spec: {} });
template.stage({ identifier: 'stub', versionLabel: 'v1' });
template.stage({ identifier: 'stub', versionLabel: 'v2', stable: true });
// @ts-expect-error: only a template version can be the stable one
service({ identifier: 'web', deploymentType: 'Kubernetes', stable: true });
stepTemplate({ identifier: 'say', templateRef: echo });
stepTemplate({ identifier: 'say', templateRef: 'account.echo', versionLabel: 'v2' });
// @ts-expect-error: a template reference is a template builder or its identifier, not a service
stepTemplate({ identifier: 'say', templateRef: api });

const deploy = pipeline({ identifier: 'deploy', project: 'web' });
const values = inputSet({ identifier: 'prod', pipeline: deploy, values: { variables: [] } });
inputSet({ identifier: 'prod', pipeline: 'deploy' });
// @ts-expect-error: the pipeline is required
inputSet({ identifier: 'prod' });
overlayInputSet({ identifier: 'all', pipeline: deploy, inputSets: [values, 'other'] });
overlayInputSet({
  identifier: 'all',
  pipeline: deploy,
  // @ts-expect-error: input sets by builder or identifier, not a trigger
  inputSets: [trigger.cron({ identifier: 'n', pipeline: deploy, expression: '0 2 * * *' })],
});

expectTypeOf(
  trigger.cron({ identifier: 'nightly', pipeline: deploy, expression: '0 2 * * *', inputSets: [values] }),
).toEqualTypeOf<TriggerBuilder>();
trigger.webhook({
  identifier: 'pr',
  pipeline: deploy,
  provider: 'Github',
  event: 'PullRequest',
  spec: { connectorRef: 'gh', actions: ['Open'] },
});
trigger.artifact({
  identifier: 'image',
  pipeline: deploy,
  artifactType: 'DockerRegistry',
  spec: { connectorRef: 'hub', imagePath: 'org/app' },
});
trigger({ identifier: 'custom', pipeline: deploy, source: { type: 'Webhook', spec: { type: 'Custom', spec: {} } } });
// @ts-expect-error: a cron trigger needs its expression
trigger.cron({ identifier: 'nightly', pipeline: deploy });
// @ts-expect-error: not a trigger source type of the platform
trigger({ identifier: 'mail', pipeline: deploy, source: { type: 'Email' } });

deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  service: api,
  environment: prod,
  infrastructureDefinitions: [k8s, 'other'],
});
// @ts-expect-error: a service builder is not an environment
deployment({ identifier: 'd', deploymentType: 'Kubernetes', service: api, environment: api });

// A template's runtime inputs type the templateInputs of its uses: a misspelt field is a type error.
const greet = template.step({
  identifier: 'greet',
  versionLabel: 'v1',
  spec: {
    type: 'ShellScript',
    timeout: '<+input>',
    spec: { shell: 'Bash', source: { type: 'Inline', spec: { script: input() } } },
  },
});
stepTemplate({
  identifier: 'hi',
  templateRef: greet,
  templateInputs: { type: 'ShellScript', timeout: '5m', spec: { source: { spec: { script: 'echo hi' } } } },
});
// prettier-ignore
// @ts-expect-error: "scirpt" is not a runtime input of the template
stepTemplate({ identifier: 'hi', templateRef: greet, templateInputs: { spec: { source: { spec: { scirpt: 'echo hi' } } } } });
// @ts-expect-error: the shell is fixed in the template, not an input
stepTemplate({ identifier: 'hi', templateRef: greet, templateInputs: { spec: { shell: 'PowerShell' } } });
// Text references keep the wire form: any inputs.
stepTemplate({ identifier: 'hi', templateRef: 'greet', versionLabel: 'v1', templateInputs: { anything: 1 } });
const build = template.stage({
  identifier: 'build',
  versionLabel: 'v1',
  spec: { type: 'Custom', variables: [{ name: 'env', type: 'String', value: '<+input>' }] },
});
stageTemplate({
  identifier: 'b',
  templateRef: build,
  templateInputs: { type: 'Custom', variables: [{ name: 'env', type: 'String', value: 'prod' }] },
});
// @ts-expect-error: a stage template's inputs are typed the same way
stageTemplate({ identifier: 'b', templateRef: build, templateInputs: { type: 'Custom', varaibles: [] } });
const flow = template.pipeline({
  identifier: 'flow',
  versionLabel: 'v1',
  spec: { stages: [{ stage: { identifier: 'ship', type: 'Custom', timeout: '<+input>' } }] },
});
pipeline({
  identifier: 'p',
  project: 'web',
  template: {
    templateRef: flow,
    templateInputs: { stages: [{ stage: { identifier: 'ship', type: 'Custom', timeout: '10m' } }] },
  },
});
// prettier-ignore
// @ts-expect-error: a pipeline template's inputs are typed the same way ("timeuot" is no input)
pipeline({ identifier: 'p', project: 'web', template: { templateRef: flow, templateInputs: { stages: [{ stage: { identifier: 'ship', timeuot: '10m' } }] } } });
// @ts-expect-error: a stage template is no pipeline's template
pipeline({ identifier: 'p', project: 'web', template: { templateRef: build } });

// A template whose spec is a builder (the README's form): its uses take that step or stage type's fields.
const echoStep = template.step({
  identifier: 'echo',
  versionLabel: 'v1',
  spec: shell({ identifier: 'echo', script: input(), timeout: input() }),
});
stepTemplate({
  identifier: 'hi',
  templateRef: echoStep,
  templateInputs: { type: 'ShellScript', timeout: '5m', spec: { source: { type: 'Inline', spec: { script: 'x' } } } },
});
// @ts-expect-error: "timout" is no field of a ShellScript step
stepTemplate({ identifier: 'hi', templateRef: echoStep, templateInputs: { timout: '5m' } });
// @ts-expect-error: a ShellScript step's template takes no other step type
stepTemplate({ identifier: 'hi', templateRef: echoStep, templateInputs: { type: 'Http' } });
// prettier-ignore
// @ts-expect-error: "scirpt" is no field of a ShellScript step's source
stepTemplate({ identifier: 'hi', templateRef: echoStep, templateInputs: { spec: { source: { type: 'Inline', spec: { scirpt: 'x' } } } } });
const customStage = template.stage({ identifier: 'cs', versionLabel: 'v1', spec: custom({ identifier: 'cs' }) });
stageTemplate({ identifier: 'c', templateRef: customStage, templateInputs: { type: 'Custom', timeout: '1h' } });
// @ts-expect-error: "varaibles" is no field of a stage
stageTemplate({ identifier: 'c', templateRef: customStage, templateInputs: { varaibles: [] } });

// An input set's values are typed by its pipeline's runtime-input variables, by name or as the wire list.
const tagged = pipeline({
  identifier: 'tagged',
  project: 'web',
  variables: { tag: input(), replicas: { type: 'Number', value: input() }, team: 'core' },
});
inputSet({ identifier: 'v', pipeline: tagged, values: { variables: { tag: 'v1.2.3', replicas: 3 } } });
inputSet({ identifier: 'v', pipeline: tagged, values: { variables: [{ name: 'tag', type: 'String', value: 'v1' }] } });
// @ts-expect-error: "tga" is no variable of the pipeline
inputSet({ identifier: 'v', pipeline: tagged, values: { variables: { tga: 'v1.2.3' } } });
// @ts-expect-error: "team" is fixed in the pipeline, not a runtime input
inputSet({ identifier: 'v', pipeline: tagged, values: { variables: { team: 'other' } } });
// @ts-expect-error: the wire list is typed the same way
inputSet({ identifier: 'v', pipeline: tagged, values: { variables: [{ name: 'team', value: 'other' }] } });
// A pipeline named by its identifier is another document: any variable.
inputSet({ identifier: 'v', pipeline: 'tagged', project: 'web', values: { variables: { anything: 'x' } } });
// Variables declared with .variables() count too.
const later = pipeline({ identifier: 'later', project: 'web' }).variables({ region: input() });
inputSet({ identifier: 'v', pipeline: later, values: { variables: { region: 'eu' } } });
// @ts-expect-error: only region is declared
inputSet({ identifier: 'v', pipeline: later, values: { variables: { zone: 'eu' } } });
