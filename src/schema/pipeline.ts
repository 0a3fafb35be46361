import { z } from 'zod';
import {
  checkSpecByType,
  delegateSelectors,
  EVERY_PROBLEM,
  displayName,
  duration,
  identifier,
  orExpression,
  scopeIdentifier,
  tags,
  typedBy,
  pipelineVariable,
} from './common.js';
import { notificationRule } from './notification.js';
import { executionSteps, failureStrategies, rollbackSteps, requireTypeOrTemplate, when } from './pipeline-elements.js';
import { pipelineProperties } from './stage-ci.js';
import { HAND_MODELLED_STAGE_SPECS, stageSpecs } from './stages.js';
import { strategyOrInput } from './strategy.js';
import { templateRef } from './template-ref.js';
import { stageEntry } from '../catalog/catalog.js';

/** The part every stage type with steps shares: `execution.steps` and `execution.rollbackSteps`. */
const anyStageSpec = z.looseObject({
  execution: z.looseObject({ steps: executionSteps.optional(), rollbackSteps: rollbackSteps.optional() }).optional(),
});

export const stage = typedBy(
  z
    .looseObject({
      name: displayName,
      identifier,
      description: z.string().optional(),
      type: z.string().optional().meta({ description: 'Stage type, e.g. Deployment, CI, Approval, Custom, Pipeline.' }),
      spec: z.looseObject({}).optional(),
      tags: tags.optional(),
      failureStrategies: failureStrategies.optional(),
      when: when.optional(),
      strategy: strategyOrInput.optional(),
      variables: z.array(pipelineVariable).optional(),
      delegateSelectors: delegateSelectors.optional(),
      timeout: duration.optional(),
      template: templateRef.optional(),
    })
    .superRefine((value, ctx) => {
      requireTypeOrTemplate(value, ctx);
      // Node fields the stage type requires (a Deployment stage's failureStrategies): the platform refuses the
      // pipeline without them when it saves it (schema validation, platform-facts-2.md).
      if (typeof value.type === 'string' && value.template === undefined)
        for (const field of stageEntry(value.type)?.required ?? [])
          if ((value as Record<string, unknown>)[field] === undefined)
            ctx.addIssue({
              code: 'invalid_type',
              expected: 'array',
              input: undefined,
              path: [field],
              message: `${field} is required on a ${value.type} stage`,
            } as never);
      // No stage node of the schema requires `spec` (a stage without one saves, and runs nothing).
      if (value.spec === undefined) return;
      checkSpecByType(stageSpecs, value.type, value.spec, ctx);
      // A stage type pipewright does not model still gets its steps checked, when it has them where steps go.
      if (typeof value.type === 'string' && !Object.hasOwn(HAND_MODELLED_STAGE_SPECS, value.type))
        checkSpecByType({ [value.type]: anyStageSpec }, value.type, value.spec, ctx);
    }, EVERY_PROBLEM)
    .meta({ title: 'Stage' }),
  stageSpecs,
);

/** One entry of `stages`: exactly one of `stage` or `parallel`. */
export const stageElement = z
  .looseObject({
    stage: stage.optional(),
    parallel: z.array(z.looseObject({ stage })).optional().meta({ description: 'Stages that run at the same time.' }),
  })
  .superRefine((value, ctx) => {
    const present = ['stage', 'parallel'].filter((key) => key in value);
    if (present.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `each entry of stages has exactly one of stage or parallel (found ${present.length ? present.join(', ') : 'none'})`,
      });
  });

export const flowControl = z.looseObject({
  barriers: z
    // Any text: the platform reads a barrier's identifier as a plain String, required but with no pattern
    // (harness-core `BarrierInfoConfig.java` L21-23; the published schema's `barrierConfig` has none either).
    .array(z.looseObject({ name: z.string().min(1), identifier: z.string().min(1) }))
    .optional()
    .meta({ description: 'Barriers that Barrier steps in parallel stages wait at, by identifier.' }),
});

export const pipelineBody = z
  .looseObject({
    name: displayName,
    identifier,
    // The platform's schema takes any text for the scope (no pattern): a scope that cannot exist is a warning
    // (rules-scope.ts), since the document itself is valid and only the request for that scope fails.
    projectIdentifier: scopeIdentifier,
    orgIdentifier: scopeIdentifier,
    description: z.string().optional(),
    tags: tags.optional(),
    properties: pipelineProperties.optional(),
    allowStageExecutions: orExpression(z.boolean()).optional(),
    // A plain boolean in the platform's schema, a Java `boolean` read by Jackson (as allowStageExecutions).
    fixedInputsOnRerun: orExpression(z.boolean()).optional(),
    timeout: duration.optional(),
    variables: z.array(pipelineVariable).optional(),
    delegateSelectors: delegateSelectors.optional(),
    flowControl: flowControl.optional(),
    notificationRules: z.array(notificationRule).optional(),
    template: templateRef.optional(),
    stages: z.array(stageElement).min(1, { error: 'a pipeline needs at least one stage' }).optional(),
  })
  // No `stages` is no error: the schema's pipeline requires none (a pipeline made from a template has its stages
  // there), and nothing shows the platform refusing one without (docs/fidelity.md).
  .meta({ title: 'Pipeline' });

export const pipelineDocument = z.looseObject({ pipeline: pipelineBody }).meta({
  title: 'pipewright pipeline document',
  description: 'A platform pipeline ("v0" YAML), as sent to POST /gateway/pipeline/api/pipelines.',
});

export type Stage = z.infer<typeof stage>;
export type PipelineBody = z.infer<typeof pipelineBody>;
export type PipelineDocument = z.infer<typeof pipelineDocument>;
