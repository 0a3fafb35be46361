import { z } from 'zod';
import { identifier, tags, variable } from './common.js';

export const ENVIRONMENT_TYPES = ['Production', 'PreProduction'] as const;

/** An environment (facts 2 §6, `NGEnvironmentInfoConfig`): where services are deployed. */
export const environmentBody = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    type: z.enum(ENVIRONMENT_TYPES),
    orgIdentifier: identifier.optional(),
    projectIdentifier: identifier.optional(),
    description: z.string().nullish(),
    tags: tags.nullish(),
    variables: z.array(variable).optional(),
    overrides: z.looseObject({}).optional(),
  })
  .meta({ title: 'Environment' });

export const environmentDocument = z.looseObject({ environment: environmentBody }).meta({
  title: 'pipewright environment document',
  description: 'An environment, as sent in the yaml field of POST /ng/api/environmentsV2.',
});

export type EnvironmentBody = z.infer<typeof environmentBody>;
export type EnvironmentDocument = z.infer<typeof environmentDocument>;
