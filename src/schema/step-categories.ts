/**
 * Which stage types a step type can run in. The platform decides this per step; pipewright knows the
 * families below and says nothing about other types.
 */

/** Steps that run in a container: a CI stage, or a containerised step group (stepGroupInfra) elsewhere. */
export const CONTAINER_STEP_TYPES: readonly string[] = [
  'Run', 'RunTests', 'Test', 'Background', 'Plugin', 'Action', 'Bitrise', 'GitClone',
  'BuildAndPushDockerRegistry', 'BuildAndPushECR', 'BuildAndPushGCR', 'BuildAndPushACR',
  'RestoreCacheS3', 'SaveCacheS3', 'RestoreCacheGCS', 'SaveCacheGCS',
];

/** Steps that deploy a service to an infrastructure: only a Deployment stage has both. */
export const DEPLOY_STEP_TYPES: readonly string[] = [
  'K8sRollingDeploy', 'K8sRollingRollback', 'K8sCanaryDeploy', 'K8sCanaryDelete', 'K8sBlueGreenDeploy',
  'K8sBGSwapServices', 'K8sApply', 'K8sDelete', 'K8sScale', 'K8sDryRun', 'HelmDeploy', 'HelmRollback',
  'HelmBGDeploy', 'HelmCanaryDeploy',
];

/** Steps that wait for a person or a ticket: not in a CI stage. */
export const APPROVAL_STEP_TYPES: readonly string[] = ['HarnessApproval', 'JiraApproval', 'ServiceNowApproval', 'CustomApproval'];
