import { z } from 'zod';
import { checkSpecByType, delegateSelectors, duration, identifier, tags, variable } from './common.js';
import { failureStrategy } from './failure-strategy.js';
import { when } from './pipeline-elements.js';
import { stageSpecs } from './stages.js';

export const stage = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    description: z.string().optional(),
    type: z.string().meta({ description: 'Stage type, e.g. Deployment, CI, Approval, Custom.' }),
    spec: z.looseObject({}).optional(),
    tags: tags.optional(),
    failureStrategies: z.array(failureStrategy).optional(),
    when: when.optional(),
    variables: z.array(variable).optional(),
    delegateSelectors: delegateSelectors.optional(),
    timeout: duration.optional(),
  })
  .superRefine((value, ctx) => checkSpecByType(stageSpecs, value.type, value.spec, ctx))
  .meta({ title: 'Stage' });

/** One entry of `stages`: exactly one of `stage` or `parallel`. */
export const stageElement = z
  .looseObject({
    stage: stage.optional(),
    parallel: z.array(z.looseObject({ stage })).optional(),
  })
  .superRefine((value, ctx) => {
    const present = ['stage', 'parallel'].filter((key) => key in value);
    if (present.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `each entry of stages has exactly one of stage or parallel (found ${present.length ? present.join(', ') : 'none'})`,
      });
  });

export const pipelineBody = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    projectIdentifier: identifier,
    orgIdentifier: identifier,
    description: z.string().optional(),
    tags: tags.optional(),
    properties: z.looseObject({}).optional(),
    timeout: duration.optional(),
    variables: z.array(variable).optional(),
    delegateSelectors: delegateSelectors.optional(),
    stages: z.array(stageElement).min(1, { error: 'a pipeline needs at least one stage' }),
  })
  .meta({ title: 'Pipeline' });

export const pipelineDocument = z.looseObject({ pipeline: pipelineBody }).meta({
  title: 'pipewright pipeline document',
  description: 'A platform pipeline ("v0" YAML), as sent to POST /gateway/pipeline/api/pipelines.',
});

export type Stage = z.infer<typeof stage>;
export type PipelineBody = z.infer<typeof pipelineBody>;
export type PipelineDocument = z.infer<typeof pipelineDocument>;
