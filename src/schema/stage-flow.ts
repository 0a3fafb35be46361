import { z } from 'zod';
import { executionSteps, rollbackSteps } from './pipeline-elements.js';

/** Approval and Custom stages: steps only, no service or build infrastructure. */
const stepsOnly = z.looseObject({ steps: executionSteps, rollbackSteps: rollbackSteps.optional() });

export const approvalSpec = z.looseObject({ execution: stepsOnly }).meta({ title: 'Approval stage spec' });

export const customSpec = z
  .looseObject({ environment: z.looseObject({}).optional(), execution: stepsOnly })
  .meta({ title: 'Custom stage spec' });

/** A Pipeline stage runs another pipeline (a chained pipeline) and may map its outputs. */
export const pipelineStageSpec = z
  .looseObject({
    // Text in the platform's schema (PipelineStageConfig), like a document's own scope: no pattern to check.
    org: z.string().meta({ description: 'Org of the child pipeline.' }),
    project: z.string().meta({ description: 'Project of the child pipeline.' }),
    pipeline: z.string().meta({ description: 'Identifier of the child pipeline.' }),
    inputSetReferences: z.array(z.string()).optional(),
    inputs: z.looseObject({}).optional().meta({ description: "Values for the child pipeline's runtime inputs." }),
    outputs: z.array(z.looseObject({ name: z.string(), value: z.string() })).optional(),
  })
  .meta({ title: 'Pipeline stage spec' });
