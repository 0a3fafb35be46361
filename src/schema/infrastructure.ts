import { z } from 'zod';
import { identifier, tags } from './common.js';

/** An infrastructure definition (facts 2 §6, `InfrastructureDefinitionConfig`): one target inside an environment. */
export const infrastructureBody = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    environmentRef: z.string().min(1),
    deploymentType: z.string().min(1),
    type: z.string().min(1),
    spec: z.looseObject({}),
    orgIdentifier: identifier.optional(),
    projectIdentifier: identifier.optional(),
    description: z.string().nullish(),
    tags: tags.nullish(),
    allowSimultaneousDeployments: z.boolean().optional(),
    scopedServices: z.array(z.string()).optional(),
  })
  .meta({ title: 'Infrastructure definition' });

export const infrastructureDocument = z.looseObject({ infrastructureDefinition: infrastructureBody }).meta({
  title: 'pipewright infrastructure definition document',
  description: 'An infrastructure definition, as sent in the yaml field of POST /ng/api/infrastructures.',
});

export type InfrastructureBody = z.infer<typeof infrastructureBody>;
export type InfrastructureDocument = z.infer<typeof infrastructureDocument>;
