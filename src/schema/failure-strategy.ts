import { z } from 'zod';
import { duration, orExpression } from './common.js';

export const FAILURE_TYPES = [
  'AllErrors',
  'Unknown',
  'Authentication',
  'Authorization',
  'Connectivity',
  'Timeout',
  'Verification',
  'DelegateProvisioning',
  'DelegateRestart',
  'PolicyEvaluationFailure',
  'InputTimeoutError',
  'ApprovalRejection',
  'UserMarkedFailure',
] as const;

export const FAILURE_ACTIONS = [
  'Ignore',
  'Retry',
  'MarkAsSuccess',
  'MarkAsFailure',
  'Abort',
  'StageRollback',
  'StepGroupRollback',
  'PipelineRollback',
  'ManualIntervention',
  'ProceedWithDefaultValues',
  'RetryStepGroup',
] as const;

export const failureType = z.enum(FAILURE_TYPES);
export const failureActionType = z.enum(FAILURE_ACTIONS);

const simpleAction = z.looseObject({ type: failureActionType });

export const failureAction = z.looseObject({
  type: failureActionType,
  spec: z
    .looseObject({
      // A `ParameterField<Integer>` on the platform (harness-core `RetryFailureSpecConfig.java` L29): an
      // expression or runtime input is taken.
      retryCount: orExpression(z.number().int().nonnegative()).optional(),
      // The platform's schema puts no pattern on retry intervals (its own samples use `1s`).
      retryIntervals: z.array(z.string()).optional(),
      onRetryFailure: z.looseObject({ action: simpleAction }).optional(),
      timeout: duration.optional(),
      onTimeout: z.looseObject({ action: simpleAction }).optional(),
    })
    .optional(),
});

export const failureStrategy = z
  .looseObject({
    onFailure: z.looseObject({
      // No minimum: the schema's OnFailureConfig sets none (docs/fidelity.md); an empty list matches no failure.
      errors: z.array(failureType),
      action: failureAction,
    }),
  })
  .meta({
    description: 'What to do when this fails: the error types to match and the action to take.',
    examples: [{ onFailure: { errors: ['AllErrors'], action: { type: 'StageRollback' } } }],
  });

export type FailureType = z.infer<typeof failureType>;
export type FailureActionType = z.infer<typeof failureActionType>;
export type FailureStrategy = z.infer<typeof failureStrategy>;
