import { z } from 'zod';
import { documentPartSchema } from './catalog-schemas.js';
import { variantSchemas } from './common.js';
import { resourceFields } from './resource-fields.js';

const definition = documentPartSchema('infrastructure') as z.ZodObject;

/**
 * An infrastructure definition (facts 2 §6, `InfrastructureDefinitionConfig`): one target inside an
 * environment. Its `type` and `spec` are the class a Deployment stage can hold inline, checked by type with the
 * pipeline schema's structure.
 */
export const infrastructureBody = definition
  .safeExtend({
    ...resourceFields,
    environmentRef: z.string().min(1),
    deploymentType: z.string().min(1),
    spec: z.looseObject({}),
    allowSimultaneousDeployments: z.boolean().optional(),
    scopedServices: z.array(z.string()).optional(),
  })
  .meta({ title: 'Infrastructure definition' });
// The spec's fields come from the variant its type picks: the key-typo check asks the same question.
const variants = variantSchemas.get(definition);
if (variants) variantSchemas.set(infrastructureBody, variants);

export const infrastructureDocument = z.looseObject({ infrastructureDefinition: infrastructureBody }).meta({
  title: 'pipewright infrastructure definition document',
  description: 'An infrastructure definition, as sent in the yaml field of POST /ng/api/infrastructures.',
});

export type InfrastructureBody = z.infer<typeof infrastructureBody>;
export type InfrastructureDocument = z.infer<typeof infrastructureDocument>;
