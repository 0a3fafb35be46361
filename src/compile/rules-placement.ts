import type { DocPath } from '../ir/node.js';
import { STAGE_TYPES, stagesForStep } from '../catalog/catalog.js';
import { APPROVAL_STEP_TYPES, CONTAINER_STEP_TYPES, DEPLOY_STEP_TYPES } from '../schema/step-categories.js';
import type { Diagnostic } from './diagnostics.js';
import { isNode, list, ruleError, type Node } from './rule-kit.js';

/** Stage types whose steps run on a delegate; container steps there need a containerised step group. */
const DELEGATE_STAGES = new Set(['Deployment', 'Custom', 'Approval']);

interface Placed {
  readonly step: Node;
  readonly path: DocPath;
  /** Inside a step group that has stepGroupInfra (its container steps have somewhere to run). */
  readonly containerised: boolean;
}

function* placedSteps(steps: unknown, base: DocPath, containerised: boolean): Generator<Placed> {
  for (const [index, element] of list(steps).entries()) {
    if (!isNode(element)) continue;
    const path = [...base, index];
    if (isNode(element.step)) yield { step: element.step, path: [...path, 'step'], containerised };
    if (isNode(element.stepGroup)) {
      const group = element.stepGroup;
      yield* placedSteps(group.steps, [...path, 'stepGroup', 'steps'], containerised || isNode(group.stepGroupInfra));
    }
    if (Array.isArray(element.parallel)) yield* placedSteps(element.parallel, [...path, 'parallel'], containerised);
  }
}

/**
 * A step type the stage type cannot run, as the platform's schema lists each stage type's steps (the
 * catalogue); and container steps outside a containerised step group in a stage whose steps run on a delegate.
 */
export function stepPlacement(document: Node, stages: Iterable<{ node: Node; path: DocPath }>): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const stage of stages) {
    const stageType = stage.node.type;
    const execution = isNode(stage.node.spec) && isNode(stage.node.spec.execution) ? stage.node.spec.execution : undefined;
    if (typeof stageType !== 'string' || !execution) continue;
    const base = [...stage.path, 'spec', 'execution'];
    const steps = [...placedSteps(execution.steps, [...base, 'steps'], false), ...placedSteps(execution.rollbackSteps, [...base, 'rollbackSteps'], false)];
    for (const { step, path, containerised } of steps) {
      const type = step.type;
      if (typeof type !== 'string') continue;
      const at = [...path, 'type'];
      const allowed = stagesForStep(type);
      if (CONTAINER_STEP_TYPES.includes(type) && DELEGATE_STAGES.has(stageType) && !containerised)
        found.push(
          ruleError(document, at, 'step-not-allowed', `a ${type} step runs in a container and cannot run in a ${stageType} stage outside a containerised step group`,
            'move it to a CI stage, or into a stepGroup with stepGroupInfra (a Kubernetes cluster to run it on)'),
        );
      else if (!allowed || !STAGE_TYPES.includes(stageType) || allowed.includes(stageType)) continue;
      else if (DEPLOY_STEP_TYPES.includes(type))
        found.push(
          ruleError(document, at, 'step-not-allowed', `a ${type} step deploys a service and cannot run in a ${stageType} stage`,
            'move it to a Deployment stage, which has the service and infrastructure it needs'),
        );
      else if (APPROVAL_STEP_TYPES.includes(type) && stageType === 'CI')
        found.push(
          ruleError(document, at, 'step-not-allowed', `a ${type} step cannot run in a CI stage`,
            'put approvals in an Approval stage (or a Deployment or Custom stage) before or after the build'),
        );
      else
        found.push(
          ruleError(document, at, 'step-not-allowed', `a ${type} step cannot run in a ${stageType} stage`,
            `the platform runs ${type} steps in ${allowed.join(', ')} stages`),
        );
    }
  }
  return found;
}

