import { z } from 'zod';
import { identifier, tags } from './common.js';

/** A trigger (facts 2 §6): what starts a pipeline (a webhook, a new artifact, a schedule), with which inputs. */
export const triggerBody = z
  .looseObject({
    name: z.string().optional(),
    identifier,
    orgIdentifier: identifier,
    projectIdentifier: identifier,
    pipelineIdentifier: identifier.optional(),
    description: z.string().nullish(),
    tags: tags.nullish(),
    enabled: z.boolean().optional(),
    source: z.looseObject({ type: z.string(), spec: z.looseObject({}).optional() }).optional(),
    inputYaml: z.string().optional(),
    inputSetRefs: z.array(z.string()).optional(),
  })
  .meta({ title: 'Trigger' });

export const triggerDocument = z.looseObject({ trigger: triggerBody }).meta({
  title: 'pipewright trigger document',
  description: 'A trigger, as sent to POST /pipeline/api/triggers.',
});

export type TriggerBody = z.infer<typeof triggerBody>;
export type TriggerDocument = z.infer<typeof triggerDocument>;
