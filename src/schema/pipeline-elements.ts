import { z } from 'zod';
import { checkSpecByType, delegateSelectors, duration, identifier, variable } from './common.js';
import { failureStrategy } from './failure-strategy.js';
import { stepSpecs } from './steps.js';

export const when = z.looseObject({
  stageStatus: z.enum(['Success', 'Failure', 'All']).optional(),
  pipelineStatus: z.enum(['Success', 'Failure', 'All']).optional(),
  condition: z.string().optional(),
});

export const step = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    type: z.string().meta({ description: 'Step type, e.g. ShellScript, Run, Http.' }),
    description: z.string().optional(),
    timeout: duration.optional(),
    spec: z.looseObject({}).optional(),
    when: when.optional(),
    failureStrategies: z.array(failureStrategy).optional(),
  })
  .superRefine((value, ctx) => checkSpecByType(stepSpecs, value.type, value.spec, ctx))
  .meta({ title: 'Step' });

export interface StepGroupShape {
  name: string;
  identifier: string;
  steps: StepElementShape[];
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

export const stepGroup = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    steps: z.array(stepElement),
    when: when.optional(),
    failureStrategies: z.array(failureStrategy).optional(),
    delegateSelectors: delegateSelectors.optional(),
    timeout: duration.optional(),
    variables: z.array(variable).optional(),
  })
  .meta({ title: 'Step group' });

export const executionSteps = z.array(stepElement);
