/**
 * Which stage types a step type can run in, beyond the catalogue's list per type: the families of steps the
 * placement rule explains, and the stage types they concern, declared together here. The platform decides
 * placement per step; pipewright knows these families and says nothing more about other types.
 */

/** Steps that run in a container: a CI stage, or a containerised step group (stepGroupInfra) elsewhere. */
export const CONTAINER_STEP_TYPES: readonly string[] = [
  'Run',
  'RunTests',
  'Test',
  'Background',
  'Plugin',
  'Action',
  'Bitrise',
  'GitClone',
  'BuildAndPushDockerRegistry',
  'BuildAndPushECR',
  'BuildAndPushGCR',
  'BuildAndPushACR',
  'RestoreCacheS3',
  'SaveCacheS3',
  'RestoreCacheGCS',
  'SaveCacheGCS',
];

/** Stage types whose steps run on a delegate: a container step there needs a containerised step group. */
export const DELEGATE_STAGE_TYPES: readonly string[] = ['Deployment', 'Custom', 'Approval'];

/** Steps that deploy a service to an infrastructure: only a Deployment stage has both. */
export const DEPLOY_STEP_TYPES: readonly string[] = [
  'K8sRollingDeploy',
  'K8sRollingRollback',
  'K8sCanaryDeploy',
  'K8sCanaryDelete',
  'K8sBlueGreenDeploy',
  'K8sBGSwapServices',
  'K8sApply',
  'K8sDelete',
  'K8sScale',
  'K8sDryRun',
  'HelmDeploy',
  'HelmRollback',
  'HelmBGDeploy',
  'HelmCanaryDeploy',
];

/** Steps that wait for a person or a ticket: not in a CI stage. */
export const APPROVAL_STEP_TYPES: readonly string[] = [
  'HarnessApproval',
  'JiraApproval',
  'ServiceNowApproval',
  'CustomApproval',
];
