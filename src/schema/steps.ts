import { z } from 'zod';
import { delegateSelectors, orExpression } from './common.js';
import { harnessApprovalSpec, jiraApprovalSpec } from './steps-approval.js';
import {
  helmDeploySpec,
  k8sApplySpec,
  k8sBlueGreenDeploySpec,
  k8sCanaryDeploySpec,
  k8sRollingDeploySpec,
  k8sRollingRollbackSpec,
} from './steps-cd.js';
import { actionSpec, buildAndPushDockerRegistrySpec, pluginSpec, runSpec, runTestsSpec } from './steps-ci.js';
import { barrierSpec, emailSpec, httpSpec, waitSpec } from './steps-utility.js';

const nameTypeValue = z.looseObject({
  name: z.string(),
  type: z.enum(['String', 'Number', 'Secret']),
  value: z.union([z.string(), z.number()]),
});

export const SHELLS = ['Bash', 'PowerShell'] as const;

export const shellScriptSpec = z.looseObject({
  shell: z.enum(SHELLS).meta({ description: 'Shell that runs the script.' }),
  onDelegate: orExpression(z.boolean()).optional(),
  source: z.looseObject({
    type: z.enum(['Inline', 'Harness']),
    spec: z.looseObject({ script: z.string().optional(), file: z.string().optional() }),
  }),
  environmentVariables: z.array(nameTypeValue).optional(),
  outputVariables: z.array(nameTypeValue).optional(),
  executionTarget: z
    .looseObject({ host: z.string().optional(), connectorRef: z.string().optional(), workingDirectory: z.string().optional() })
    .optional(),
  delegateSelectors: delegateSelectors.optional(),
  includeInfraSelectors: orExpression(z.boolean()).optional(),
}).meta({ title: 'ShellScript step spec' });

/** Typed specs of the step types pipewright models; any other `type` passes through unchecked. */
export const stepSpecs: Record<string, z.ZodType> = {
  ShellScript: shellScriptSpec,
  Run: runSpec,
  RunTests: runTestsSpec,
  BuildAndPushDockerRegistry: buildAndPushDockerRegistrySpec,
  Plugin: pluginSpec,
  Action: actionSpec,
  Http: httpSpec,
  HarnessApproval: harnessApprovalSpec,
  JiraApproval: jiraApprovalSpec,
  K8sRollingDeploy: k8sRollingDeploySpec,
  K8sRollingRollback: k8sRollingRollbackSpec,
  K8sCanaryDeploy: k8sCanaryDeploySpec,
  K8sBlueGreenDeploy: k8sBlueGreenDeploySpec,
  K8sApply: k8sApplySpec,
  HelmDeploy: helmDeploySpec,
  Wait: waitSpec,
  Barrier: barrierSpec,
  Email: emailSpec,
};

export type ShellScriptSpec = z.infer<typeof shellScriptSpec>;

/** Step types of the platform that pipewright knows by name, typed or not; used for "did you mean". */
export const KNOWN_STEP_TYPES: readonly string[] = [
  'ShellScript', 'Run', 'RunTests', 'BuildAndPushDockerRegistry', 'BuildAndPushECR', 'BuildAndPushGCR', 'Plugin',
  'Action', 'Background', 'Http', 'HarnessApproval', 'JiraApproval', 'ServiceNowApproval', 'CustomApproval',
  'JiraCreate', 'JiraUpdate', 'K8sRollingDeploy', 'K8sRollingRollback', 'K8sCanaryDeploy', 'K8sCanaryDelete',
  'K8sBlueGreenDeploy', 'K8sBGSwapServices', 'K8sApply', 'K8sDelete', 'K8sScale', 'HelmDeploy', 'HelmRollback',
  'Wait', 'Barrier', 'Email', 'Queue', 'RestoreCacheS3', 'SaveCacheS3', 'RestoreCacheGCS', 'SaveCacheGCS',
  'GitClone', 'Policy', 'BuildAndPushACR', 'Bitrise', 'Test', 'HelmBGDeploy', 'HelmCanaryDeploy', 'K8sDryRun', 'TerraformPlan', 'TerraformApply', 'TerraformDestroy', 'TerraformRollback', 'Container',
];

export type RunSpec = z.infer<typeof runSpec>;
