export { connector } from './connector.js';
export type { ConnectorBuilder } from './connector.js';
export { connectors } from './connectors.js';
export type { ConnectorOptions, DockerRegistryOptions, DockerAuthOption } from './connector.js';
export type {
  FailureActionOption,
  FailureStrategyOption,
  FailureStrategySugar,
  FailureStrategyWire,
  NumberVariableOption,
  SecretVariableOption,
  StringVariableOption,
  TagsOption,
  VariableOption,
} from './common-options.js';
export { expr } from './expr.js';
export type { Expr, Value } from './expr.js';
export { input } from './input.js';
export type { RuntimeInput } from './input.js';
export { pipeline } from './pipeline.js';
export type {
  PipelineBuilder,
  PipelineOptions,
  PipelineFromTemplateOptions,
  TemplatePipelineBuilder,
} from './pipeline.js';
export { project } from './project.js';
export type { ProjectBuilder, ProjectOptions } from './project.js';
export type { AnyResource, Resource, Scope } from '../ir/node.js';
export { deployment, stage } from './stage.js';
export type {
  StageBuilder,
  StageNode,
  StageOutputs,
  StageSettings,
  StageWithoutSteps,
  DeploymentOptions,
  GenericStageOptions,
  KubernetesInfrastructureOption,
} from './stage.js';
export type { Suppressible, WireFields } from './builder.js';
export { shell, step } from './step.js';
export type { ShellOptions, StepBuilder, StepNode, StepOptions, WhenOption } from './step.js';
export type { IrNode } from '../ir/node.js';
export type { DocPath } from '../core/document-path.js';
export { raw, type RawTemplateOptions } from './raw.js';
export { run, runTests, buildAndPushDockerRegistry, plugin, action } from './steps-ci.js';
export type {
  RunStepOptions,
  RunTestsStepOptions,
  BuildAndPushDockerRegistryStepOptions,
  PluginStepOptions,
  ActionStepOptions,
} from './steps-ci.js';
export {
  k8sRollingDeploy,
  k8sRollingRollback,
  k8sCanaryDeploy,
  k8sBlueGreenDeploy,
  k8sApply,
  helmDeploy,
} from './steps-cd.js';
export type {
  K8sRollingDeployStepOptions,
  K8sRollingRollbackStepOptions,
  K8sCanaryDeployStepOptions,
  K8sBlueGreenDeployStepOptions,
  K8sApplyStepOptions,
  HelmDeployStepOptions,
} from './steps-cd.js';
export { harnessApproval, jiraApproval } from './steps-approval.js';
export type { HarnessApprovalStepOptions, JiraApprovalStepOptions } from './steps-approval.js';
export { http, wait, barrier, email } from './steps-utility.js';
export type { HttpStepOptions, WaitStepOptions, BarrierStepOptions, EmailStepOptions } from './steps-utility.js';
export { stepGroup } from './step-group.js';
export type {
  StepGroupBuilder,
  TemplateStepGroupBuilder,
  StepGroupOptions,
  ContainerInfraOption,
} from './step-group.js';
export { stepTemplate } from './template.js';
export type { StepTemplateBuilder, StepTemplateOptions, TemplateRefOption } from './template.js';
export { ci, approval, custom, pipelineStage, stageTemplate } from './stages-more.js';
export type {
  CiOptions,
  CustomOptions,
  PipelineStageBuilder,
  PipelineStageOptions,
  StageTemplateOptions,
  TemplateStageBuilder,
} from './stages-more.js';
export { parallel } from './parallel.js';
export type { ParallelStages, ParallelSteps } from './parallel.js';
export type { StrategyOption } from './step.js';
export type { ServiceEnvironmentDeploymentOptions, InfrastructureDefinitionOption } from './stage.js';
export type { Expressible } from './wire-types.js';
export { service } from './service.js';
export type { ServiceBuilder, ServiceOptions, ServiceDeploymentType, InfrastructureType } from './service.js';
export { environment } from './environment.js';
export type { EnvironmentBuilder, EnvironmentOptions } from './environment.js';
export { infrastructure } from './infrastructure.js';
export type { InfrastructureBuilder, InfrastructureOptions } from './infrastructure.js';
export { template } from './template-definition.js';
export type { TemplateBuilder, TemplateOptions } from './template-definition.js';
export type { TemplateKind, TemplateRef } from './template-inputs.js';
export { inputSet, overlayInputSet } from './input-set.js';
export type {
  InputSetBuilder,
  OverlayInputSetBuilder,
  InputSetOptions,
  OverlayInputSetOptions,
  PipelineOption,
  InputSetsOption,
} from './input-set.js';
export { trigger } from './trigger.js';
export type {
  TriggerBuilder,
  TriggerOptions,
  CronTriggerOptions,
  WebhookTriggerOptions,
  ArtifactTriggerOptions,
  TriggerBody,
  TriggerDocument,
} from './trigger.js';
export type { ResourceBuilder, ScopedOptions } from './scoped-resource.js';
