import { childrenAt, irNode, type IrNode, type OptionIssue } from '../ir/node.js';
import { captureSite, type SourceSite } from '../core/source-site.js';
import type { PipewrightTypeError } from '../core/type-error.js';
import { Builder, type Chainable } from './builder.js';
import { isStageBuilder, NO_STEPS, STAGE_BRAND, type StageNode } from './stage.js';
import type { StepTypesOf } from './step-group.js';
import { isStepNode, STEP_BRAND, type StepNode } from './step.js';
import { PARALLEL_STAGES_HAVE_NO_STEPS, parallelFix, parallelLacks, type ParallelHasNo } from './refusals.js';

/**
 * Stages that run at the same time: `{ parallel: [{ stage }, ...] }` in the pipeline's stages. On the wire the
 * block is a bare list, so it has no settings and no steps of its own: those go on each stage inside.
 */
export interface ParallelStages extends StageNode<'parallel'>, Chainable {
  readonly stages: readonly StageNode[];
  /** Refused: set `when` on each stage inside (the type error says so). */
  when(refused: PipewrightTypeError<ParallelHasNo<'stage', 'when'>>): this;
  /** Refused: set failure strategies on each stage inside. */
  failureStrategies(
    refused: PipewrightTypeError<ParallelHasNo<'stage', 'failureStrategies'>>,
    ...more: unknown[]
  ): this;
  /** Refused: set variables on each stage inside. */
  variables(refused: PipewrightTypeError<ParallelHasNo<'stage', 'variables'>>): this;
  /** Refused: set a looping strategy on each stage inside. */
  strategy(refused: PipewrightTypeError<ParallelHasNo<'stage', 'strategy'>>): this;
  /** Refused: add the steps to each stage before `parallel(...)`. */
  step(refused: PipewrightTypeError<typeof PARALLEL_STAGES_HAVE_NO_STEPS>, ...more: unknown[]): never;
  /** Refused: add the steps to each stage before `parallel(...)`. */
  rollbackStep(refused: PipewrightTypeError<typeof PARALLEL_STAGES_HAVE_NO_STEPS>, ...more: unknown[]): never;
}

/**
 * Steps that run at the same time: `{ parallel: [...] }` in a step list. A bare list on the wire too: conditions,
 * failure strategies, looping and timeouts go on each step inside (or use a `stepGroup()` around them).
 */
export interface ParallelSteps<Types extends string = string> extends StepNode<Types> {
  /** Refused: set `when` on each step inside, or put them in a `stepGroup()`. */
  when(refused: PipewrightTypeError<ParallelHasNo<'step', 'when'>>): this;
  /** Refused: set failure strategies on each step inside, or put them in a `stepGroup()`. */
  failureStrategies(refused: PipewrightTypeError<ParallelHasNo<'step', 'failureStrategies'>>, ...more: unknown[]): this;
  /** Refused: set a looping strategy on each step inside, or put them in a `stepGroup()`. */
  strategy(refused: PipewrightTypeError<ParallelHasNo<'step', 'strategy'>>): this;
  /** Refused: set a timeout on each step inside, or put them in a `stepGroup()`. */
  timeout(refused: PipewrightTypeError<ParallelHasNo<'step', 'timeout'>>): this;
}

interface ParallelProps<Node> {
  readonly nodes: readonly Node[];
  /** Settings given to the block, which it cannot hold: reported when the document is built, never dropped silently. */
  readonly issues?: readonly OptionIssue[];
}

/** A setting given to a parallel block, as the issue compile reports (it used to vanish from the YAML without a word). */
const refusedSetting = (of: 'stage' | 'step', setting: string): OptionIssue => ({
  code: 'unknown-option',
  message: `${parallelLacks(of, setting)}; .${setting}() on the group would be lost`,
  hint: parallelFix(of, setting),
});

const parallelNode = (site: SourceSite, nodes: readonly IrNode[], issues: readonly OptionIssue[] | undefined): IrNode =>
  irNode({
    kind: 'parallel',
    wrapper: 'parallel',
    site,
    body: [...nodes],
    children: childrenAt([], [...nodes]),
    issues,
  });

class ParallelStagesImpl extends Builder<ParallelProps<StageNode>> implements ParallelStages {
  get [STAGE_BRAND](): true {
    return true;
  }
  get type(): 'parallel' {
    return 'parallel';
  }
  get [NO_STEPS](): string {
    return PARALLEL_STAGES_HAVE_NO_STEPS;
  }
  get stages(): readonly StageNode[] {
    return this.props.nodes;
  }
  /** The stages' identifiers joined: a parallel block has none of its own. */
  get identifier(): string {
    return this.stages.map((stage) => stage.identifier).join('+');
  }

  when(): this {
    return this.#refuse('when');
  }
  failureStrategies(): this {
    return this.#refuse('failureStrategies');
  }
  variables(): this {
    return this.#refuse('variables');
  }
  strategy(): this {
    return this.#refuse('strategy');
  }
  step(): never {
    throw new TypeError(`parallel(${this.identifier}).step(): ${PARALLEL_STAGES_HAVE_NO_STEPS}`);
  }
  rollbackStep(): never {
    throw new TypeError(`parallel(${this.identifier}).rollbackStep(): ${PARALLEL_STAGES_HAVE_NO_STEPS}`);
  }
  #refuse(setting: string): this {
    return this.with({ issues: [...(this.props.issues ?? []), refusedSetting('stage', setting)] });
  }

  protected makeNode(): IrNode {
    return parallelNode(
      this.site,
      this.stages.map((stage) => stage.toNode()),
      this.props.issues,
    );
  }
}

class ParallelStepsImpl<Types extends string> extends Builder<ParallelProps<StepNode>> implements ParallelSteps<Types> {
  declare readonly stepTypes?: Types;
  get [STEP_BRAND](): true {
    return true;
  }

  when(): this {
    return this.#refuse('when');
  }
  failureStrategies(): this {
    return this.#refuse('failureStrategies');
  }
  strategy(): this {
    return this.#refuse('strategy');
  }
  timeout(): this {
    return this.#refuse('timeout');
  }
  #refuse(setting: string): this {
    return this.with({ issues: [...(this.props.issues ?? []), refusedSetting('step', setting)] });
  }

  protected makeNode(): IrNode {
    return parallelNode(
      this.site,
      this.props.nodes.map((node) => node.toNode()),
      this.props.issues,
    );
  }
}

/** Whether a stage list entry is a `parallel(...)` block of stages. */
export const isParallelStages = (value: StageNode): value is ParallelStages =>
  value.type === 'parallel' && 'stages' in value;

/**
 * Runs stages, or steps, at the same time: `parallel(buildApi, buildWeb)` in `pipeline().stage(...)`, or
 * `parallel(lint, test)` in a stage's `.step(...)`. Mixing stages and steps is an error.
 *
 * @example
 * ```ts
 * custom({ identifier: 'checks' }).step(
 *   parallel(shell({ identifier: 'lint', script: 'make lint' }), shell({ identifier: 'unit', script: 'make test' })),
 * )
 * ```
 */
export function parallel(...stages: [StageNode, ...StageNode[]]): ParallelStages;
export function parallel<const Steps extends readonly [StepNode, ...StepNode[]]>(
  ...steps: Steps
): ParallelSteps<StepTypesOf<Steps>>;
export function parallel(...nodes: Array<StageNode | StepNode>): ParallelStages | ParallelSteps {
  const site = captureSite(parallel);
  if (nodes.length === 0) throw new TypeError('parallel() needs at least one stage or step');
  if (nodes.every(isStageBuilder)) return new ParallelStagesImpl({ nodes }, site);
  if (nodes.every(isStepNode)) return new ParallelStepsImpl({ nodes }, site);
  throw new TypeError(
    'parallel(): pass only stages or only steps; build them with stage builders (ci(), deployment()) or step builders (run(), shell())',
  );
}
