import { article } from '../core/type-error.js';
import { STAGE_TYPES, stagesForStep } from '../catalog/catalog.js';
import type { Rule } from './walk.js';
import {
  APPROVAL_STEP_TYPES,
  CONTAINER_STEP_TYPES,
  DELEGATE_STAGE_TYPES,
  DEPLOY_STEP_TYPES,
} from '../schema/step-categories.js';
import { ruleError, ruleWarning } from './rule-kit.js';

/**
 * A step type the stage type cannot run, as the platform's schema lists each stage type's steps (the
 * catalogue): an error, the platform refuses the pipeline. And a container step outside a containerised step group
 * in a stage whose steps run on a delegate, which the schema lists for the stage (it may run in such a group): a
 * warning, since the platform saves it and the step fails when it runs, finding no container infrastructure set up
 * for it (harness-core `879-pipeline-ci-commons/.../pms/sdk/core/plugin/CommonAbstractStepExecutable.java`
 * L197-202, "Stage infra details sweeping output cannot be empty"; docs/fidelity.md).
 */
export const stepPlacement: Rule = {
  code: 'step-not-allowed',
  kinds: ['pipeline'],
  step(step, at) {
    const type = step.type;
    const stageType = at.stage?.node.type;
    if (typeof type !== 'string' || typeof stageType !== 'string') return;
    const error = (message: string, hint: string) =>
      at.report(ruleError(at.document, [...at.path, 'type'], 'step-not-allowed', message, hint));
    const warning = (message: string, hint: string) =>
      at.report(ruleWarning(at.document, [...at.path, 'type'], 'step-not-allowed', message, hint));
    const allowed = stagesForStep(type);
    if (CONTAINER_STEP_TYPES.includes(type) && DELEGATE_STAGE_TYPES.includes(stageType) && !at.containerised) {
      const message = `${article(type)} ${type} step runs in a container and cannot run in ${article(stageType)} ${stageType} stage outside a containerised step group`;
      const hint = 'move it to a CI stage, or into a stepGroup with stepGroupInfra (a Kubernetes cluster to run it on)';
      if (allowed?.includes(stageType))
        warning(`${message}: the platform saves the pipeline and the step fails when it runs`, hint);
      else error(message, hint);
    } else if (!allowed || !STAGE_TYPES.includes(stageType) || allowed.includes(stageType)) return;
    else if (DEPLOY_STEP_TYPES.includes(type))
      error(
        `${article(type)} ${type} step deploys a service and cannot run in ${article(stageType)} ${stageType} stage`,
        'move it to a Deployment stage, which has the service and infrastructure it needs',
      );
    else if (APPROVAL_STEP_TYPES.includes(type) && stageType === 'CI')
      error(
        `${article(type)} ${type} step cannot run in a CI stage`,
        'put approvals in an Approval stage (or a Deployment or Custom stage) before or after the build',
      );
    else
      error(
        `${article(type)} ${type} step cannot run in ${article(stageType)} ${stageType} stage`,
        `the platform runs ${type} steps in ${allowed.join(', ')} stages`,
      );
  },
};
