import { captureSite } from '../core/source-site.js';
import { isStageBuilder, type StageBuilder } from './stage.js';
import { ParallelSteps, type StepTypesOf } from './step-group.js';
import { parallelStages, type ParallelStages } from './stages-more.js';
import { isStepNode, type StepNode } from './step.js';

/**
 * Runs stages, or steps, at the same time: `parallel(buildApi, buildWeb)` in `pipeline().stage(...)`, or
 * `parallel(lint, test)` in a stage's `.step(...)`. Mixing stages and steps is an error.
 */
export function parallel(...stages: [StageBuilder, ...StageBuilder[]]): ParallelStages;
export function parallel<const Steps extends readonly [StepNode, ...StepNode[]]>(...steps: Steps): ParallelSteps<StepTypesOf<Steps>>;
export function parallel(...nodes: Array<StageBuilder | StepNode>): ParallelStages | ParallelSteps {
  const site = captureSite(parallel);
  if (nodes.length === 0) throw new TypeError('parallel() needs at least one stage or step');
  if (nodes.every(isStageBuilder)) return parallelStages(nodes, site);
  if (nodes.every(isStepNode)) return new ParallelSteps(nodes, site);
  throw new TypeError('parallel(): pass only stages or only steps; build them with stage builders (ci(), deployment()) or step builders (run(), shell())');
}
