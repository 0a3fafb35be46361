/**
 * Builders written by hand as sugar over catalogue entries (friendlier options, defaults). The generator
 * (scripts/generate-catalog.mjs) reads these two lists and leaves these names to the hand-written modules.
 */
export const HAND_WRITTEN_STEPS = [
  'run',
  'runTests',
  'buildAndPushDockerRegistry',
  'plugin',
  'action',
  'http',
  'wait',
  'barrier',
  'email',
  'harnessApproval',
  'jiraApproval',
  'k8sRollingDeploy',
  'k8sRollingRollback',
  'k8sCanaryDeploy',
  'k8sBlueGreenDeploy',
  'k8sApply',
  'helmDeploy',
] as const;

/** @public scripts/generate-catalog.mjs reads this list from the file's text. */
export const HAND_WRITTEN_STAGES = ['deployment', 'ci', 'approval', 'custom', 'pipelineStage'] as const;
