import { z } from 'zod';
import { stepEntry } from '../catalog/catalog.js';
import {
  checkSpecByType,
  delegateSelectors,
  EVERY_PROBLEM,
  displayName,
  duration,
  identifier,
  orExpression,
  typedBy,
  pipelineVariable,
} from './common.js';
import { failureStrategy } from './failure-strategy.js';
import { stepSpecs } from './steps.js';
import { strategyOrInput } from './strategy.js';
import { templateRef } from './template-ref.js';

export const when = z
  .looseObject({
    stageStatus: z.enum(['Success', 'Failure', 'All']).optional(),
    pipelineStatus: z.enum(['Success', 'Failure', 'All']).optional(),
    condition: z
      .string()
      .optional()
      .meta({ examples: ['<+pipeline.variables.deploy> == "true"'] }),
  })
  .meta({ description: 'Run only when the status matches and the condition (a JEXL expression) holds.' });

export const failureStrategies = orExpression(z.array(failureStrategy));

/**
 * A stage, step or step group names its `type`, unless a template supplies it. An issue shaped like a
 * missing field, so it reads "type is required".
 */
export function requireTypeOrTemplate(value: { type?: unknown; template?: unknown }, ctx: z.RefinementCtx): void {
  if (value.type === undefined && value.template === undefined)
    ctx.addIssue({
      code: 'invalid_type',
      expected: 'string',
      input: undefined,
      path: ['type'],
      message: 'type is required (or a template)',
    } as never);
}

export const step = typedBy(
  z
    .looseObject({
      name: displayName,
      identifier,
      type: z
        .string()
        .optional()
        .meta({ description: 'Step type, e.g. ShellScript, Run, Http; absent with a template.' }),
      description: z.string().optional(),
      timeout: duration.optional(),
      spec: z.looseObject({}).optional(),
      when: when.optional(),
      failureStrategies: failureStrategies.optional(),
      strategy: strategyOrInput.optional(),
      template: templateRef.optional(),
    })
    .superRefine((value, ctx) => {
      requireTypeOrTemplate(value, ctx);
      // `spec` as the step type's node in the schema says (`required` of its *StepNode), then its fields.
      if (value.spec === undefined && typeof value.type === 'string' && stepEntry(value.type)?.specRequired)
        ctx.addIssue({
          code: 'invalid_type',
          expected: 'object',
          input: undefined,
          path: ['spec'],
          message: 'spec is required',
        } as never);
      else if (value.spec !== undefined) checkSpecByType(stepSpecs, value.type, value.spec, ctx);
    }, EVERY_PROBLEM)
    .meta({ title: 'Step' }),
  stepSpecs,
);

export interface StepGroupShape {
  name: string;
  identifier: string;
  steps?: StepElementShape[];
  [key: string]: unknown;
}
export type StepElementShape =
  | { step: z.infer<typeof step>; [key: string]: unknown }
  | { stepGroup: StepGroupShape; [key: string]: unknown }
  | { parallel: StepElementShape[]; [key: string]: unknown };

/** One entry of a step list: exactly one of `step`, `stepGroup` or `parallel`. */
export const stepElement: z.ZodType<StepElementShape> = z
  .looseObject({
    step: step.optional(),
    get stepGroup() {
      return stepGroup.optional();
    },
    get parallel() {
      return z.array(stepElement).optional();
    },
  })
  .superRefine((value, ctx) => {
    const present = ['step', 'stepGroup', 'parallel'].filter((key) => key in value);
    if (present.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `each entry of a step list has exactly one of step, stepGroup or parallel (found ${present.length ? present.join(', ') : 'none'})`,
      });
  }) as never;

/** Where a containerised step group runs its container steps (Run, Plugin, ...) outside a CI stage. */
export const stepGroupInfra = z.looseObject({
  type: z.string().meta({ examples: ['KubernetesDirect'] }),
  // The platform's ContainerInfraYamlSpec requires only connectorRef; the namespace has a default.
  spec: z.looseObject({ connectorRef: z.string(), namespace: z.string().optional() }),
});

export const stepGroup = z
  .looseObject({
    name: displayName,
    identifier,
    steps: z.array(stepElement).min(1, { error: 'a step group needs at least one step' }).optional(),
    when: when.optional(),
    failureStrategies: failureStrategies.optional(),
    delegateSelectors: delegateSelectors.optional(),
    timeout: duration.optional(),
    variables: z.array(pipelineVariable).optional(),
    strategy: strategyOrInput.optional(),
    stepGroupInfra: stepGroupInfra.optional(),
    sharedPaths: z.array(z.string()).optional(),
    template: templateRef.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.steps === undefined && value.template === undefined)
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'array',
        input: undefined,
        path: ['steps'],
        message: 'steps is required (or a template)',
      } as never);
  })
  .meta({ title: 'Step group' });

/** A stage's `steps`: at least one, as the schema's ExecutionElementConfig says (`minItems: 1`). */
export const executionSteps = z.array(stepElement).min(1, { error: 'a step list needs at least one step' });
/** A stage's `rollbackSteps`: may be empty (no `minItems` in the schema). */
export const rollbackSteps = z.array(stepElement);
