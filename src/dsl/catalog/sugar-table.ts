import { SHELL_SUGAR } from '../step.js';
import { HARNESS_APPROVAL_SUGAR, JIRA_APPROVAL_SUGAR } from '../steps-approval.js';
import {
  HELM_DEPLOY_SUGAR,
  K8S_APPLY_SUGAR,
  K8S_BLUE_GREEN_DEPLOY_SUGAR,
  K8S_CANARY_DEPLOY_SUGAR,
  K8S_ROLLING_DEPLOY_SUGAR,
  K8S_ROLLING_ROLLBACK_SUGAR,
} from '../steps-cd.js';
import {
  ACTION_SUGAR,
  BUILD_AND_PUSH_DOCKER_REGISTRY_SUGAR,
  PLUGIN_SUGAR,
  RUN_SUGAR,
  RUN_TESTS_SUGAR,
} from '../steps-ci.js';
import { BARRIER_SUGAR, EMAIL_SUGAR, HTTP_SUGAR, WAIT_SUGAR } from '../steps-utility.js';
import type { HAND_WRITTEN_STEPS } from './hand-written.js';
import type { StepSugar } from './step-sugar.js';

/**
 * Every hand-written step builder's declaration, by builder name: each name hand-written.ts lists (the compiler
 * refuses a name left out or one too many), and `shell`, which has no catalogue name of its own.
 */
export const STEP_SUGAR = {
  shell: SHELL_SUGAR,
  run: RUN_SUGAR,
  runTests: RUN_TESTS_SUGAR,
  buildAndPushDockerRegistry: BUILD_AND_PUSH_DOCKER_REGISTRY_SUGAR,
  plugin: PLUGIN_SUGAR,
  action: ACTION_SUGAR,
  http: HTTP_SUGAR,
  wait: WAIT_SUGAR,
  barrier: BARRIER_SUGAR,
  email: EMAIL_SUGAR,
  harnessApproval: HARNESS_APPROVAL_SUGAR,
  jiraApproval: JIRA_APPROVAL_SUGAR,
  k8sRollingDeploy: K8S_ROLLING_DEPLOY_SUGAR,
  k8sRollingRollback: K8S_ROLLING_ROLLBACK_SUGAR,
  k8sCanaryDeploy: K8S_CANARY_DEPLOY_SUGAR,
  k8sBlueGreenDeploy: K8S_BLUE_GREEN_DEPLOY_SUGAR,
  k8sApply: K8S_APPLY_SUGAR,
  helmDeploy: HELM_DEPLOY_SUGAR,
} as const satisfies Record<(typeof HAND_WRITTEN_STEPS)[number] | 'shell', StepSugar>;

const BY_TYPE: ReadonlyMap<string, StepSugar> = new Map(
  Object.values(STEP_SUGAR).map((sugar: StepSugar) => [sugar.type, sugar]),
);

/** The declaration of the hand-written builder of a step type, if it has one. */
export const stepSugar = (type: string): StepSugar | undefined => BY_TYPE.get(type);
