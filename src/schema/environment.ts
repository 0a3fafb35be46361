import { z } from 'zod';
import { variable } from './common.js';
import { resourceFields } from './resource-fields.js';

export const ENVIRONMENT_TYPES = ['Production', 'PreProduction'] as const;

/** An environment (facts 2 §6, `NGEnvironmentInfoConfig`): where services are deployed. */
export const environmentBody = z
  .looseObject({
    ...resourceFields,
    type: z.enum(ENVIRONMENT_TYPES),
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
