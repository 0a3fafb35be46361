/**
 * The sentences that refuse a builder method which does not apply to a kind of builder: each is the parameter
 * type the editor shows (through `PipewrightTypeError`) and the run-time message JavaScript users get, from one
 * declaration here so the two cannot drift.
 */

/** Run time only: the types cannot tell a pipeline without stages from one whose stages they do not follow. */
export const NO_STAGE_YET = 'add a stage with .stage() before adding steps';
const TEMPLATE_STAGE_HAS_NO_STEPS = 'a stage made from a template has no steps: put the steps in the template';
const PIPELINE_STAGE_HAS_NO_STEPS =
  'a Pipeline stage runs another pipeline and has no steps of its own: add the steps to a stage of that pipeline';
export const PARALLEL_STAGES_HAVE_NO_STEPS =
  'parallel(...) stages have no steps of their own: add the steps to each stage before parallel(...)';
export const TEMPLATE_PIPELINE_HAS_NO_STAGES =
  'a pipeline made from a template has no stages of its own: put the stages in the template';
export const TEMPLATE_GROUP_HAS_NO_STEPS =
  'a step group made from a template has no steps of its own: put the steps in the template';

/** A catalogue stage type whose platform schema has no `execution` (Dynamic, Pipeline). */
type NoExecution<Type extends string> = `a ${Type} stage runs no steps: the platform gives its type no execution`;
const noExecution = <Type extends string>(type: Type): NoExecution<Type> =>
  `a ${type} stage runs no steps: the platform gives its type no execution`;

/**
 * Why a stage of wire type `Type` takes no `.step()`: `''` is a stage made from a template (it has no type of its
 * own), `parallel` a parallel block.
 */
export type NoStepsReason<Type extends string> = Type extends ''
  ? typeof TEMPLATE_STAGE_HAS_NO_STEPS
  : Type extends 'parallel'
    ? typeof PARALLEL_STAGES_HAVE_NO_STEPS
    : Type extends 'Pipeline'
      ? typeof PIPELINE_STAGE_HAS_NO_STEPS
      : NoExecution<Type>;

export function noStepsReason<Type extends string>(type: Type): NoStepsReason<Type> {
  const reason =
    type === ''
      ? TEMPLATE_STAGE_HAS_NO_STEPS
      : type === 'parallel'
        ? PARALLEL_STAGES_HAVE_NO_STEPS
        : type === 'Pipeline'
          ? PIPELINE_STAGE_HAS_NO_STEPS
          : noExecution(type);
  return reason as NoStepsReason<Type>;
}

/** A setting a parallel block does not have (on the wire it is a bare list of stages or steps), and the fix. */
export type ParallelLacks<
  Of extends 'stage' | 'step',
  Setting extends string,
> = `parallel(...) ${Of}s have no ${Setting} of their own`;
export type ParallelFix<
  Of extends 'stage' | 'step',
  Setting extends string,
> = `set ${Setting} on each ${Of} inside parallel(...)`;
export type ParallelHasNo<
  Of extends 'stage' | 'step',
  Setting extends string,
> = `${ParallelLacks<Of, Setting>}: ${ParallelFix<Of, Setting>}`;

export const parallelLacks = <Of extends 'stage' | 'step', Setting extends string>(
  of: Of,
  setting: Setting,
): ParallelLacks<Of, Setting> => `parallel(...) ${of}s have no ${setting} of their own`;
export const parallelFix = <Of extends 'stage' | 'step', Setting extends string>(
  of: Of,
  setting: Setting,
): ParallelFix<Of, Setting> => `set ${setting} on each ${of} inside parallel(...)`;
