import type { StepNode } from '../step.js';
import type { PipewrightTypeError } from '../../core/type-error.js';
import type { StepStages } from './generated/types.js';

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
export type Placed<Node, Stage extends string> = string extends Stage
  ? Node
  : Node extends StepNode<infer T>
    ? [Misplaced<T, Stage>] extends [never]
      ? Node
      : Node & PipewrightTypeError<`a ${Misplaced<T, Stage>} step cannot run in a ${Stage} stage; see catalog.steps for where each step type may run`>
    : Node;

/** Each argument of `.step(...)` checked against the stage type. */
export type PlacementCheck<Steps extends readonly unknown[], Stage extends string> = { [I in keyof Steps]: Placed<Steps[I], Stage> };
