import type { StepNode } from '../step.js';
import type { Article, PipewrightTypeError } from '../../core/type-error.js';
import type { StepStages } from './generated/types.js';
import type { NoStepsReason } from '../refusals.js';

/** The stage types a step type may run in; any stage for a type the catalogue does not know. */
type StagesOf<T extends string> = T extends keyof StepStages ? StepStages[T] : string;

/** The step types among `T` that a `Stage` stage cannot run. */
type Misplaced<T extends string, Stage extends string> = T extends string
  ? string extends T
    ? never
    : Stage extends StagesOf<T>
      ? never
      : T
  : never;

/** A step node as a stage of type `Stage` accepts it, or the node branded with the reason it cannot run there. */
type Placed<Node, Stage extends string> = string extends Stage
  ? Node
  : Node extends StepNode<infer T>
    ? [Misplaced<T, Stage>] extends [never]
      ? Node
      : Node &
          PipewrightTypeError<`${Article<Misplaced<T, Stage>>} ${Misplaced<T, Stage>} step cannot run in ${Article<Stage>} ${Stage} stage; see catalog.steps for where each step type may run`>
    : Node;

/** Each argument of `.step(...)` checked against the stage type. */
export type PlacementCheck<Steps extends readonly unknown[], Stage extends string> = {
  [I in keyof Steps]: Placed<Steps[I], Stage>;
};

/** The stage types whose catalogue entry has an execution: the ones some step type may run in. */
export type StepRunningStage = StepStages[keyof StepStages];

/** Whether a stage of type `Stage` takes steps; a type the catalogue does not know (`string`) may. */
type RunsSteps<Stage extends string> = string extends Stage ? true : [Stage] extends [StepRunningStage] ? true : false;

/**
 * The arguments of `.step(...)` on a stage of type `Stage`, or on a pipeline whose last stage has that type:
 * each checked against the stage type, or each refused with the reason that stage has no steps.
 */
export type StepsFor<Steps extends readonly unknown[], Stage extends string> =
  RunsSteps<Stage> extends true
    ? PlacementCheck<Steps, Stage>
    : { [I in keyof Steps]: PipewrightTypeError<NoStepsReason<Stage>> };
