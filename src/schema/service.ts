import { z } from 'zod';
import { documentPartSchema } from './catalog-schemas.js';
import { resourceFields } from './resource-fields.js';

/**
 * The deployment types a service definition may have: its class is the one a Deployment stage can hold inline,
 * so the pipeline schema names them. Its spec is left open: real services use store types, manifest types and
 * fields the published schema does not have yet (ArtifactBundle stores, `files` in Git stores), and the
 * platform takes them.
 */
const definitionType = (documentPartSchema('serviceDefinition') as z.ZodObject).shape.type as z.ZodType;

/** A service (facts 2 §6, `NGServiceV2InfoConfig`): what is deployed, and how it is defined. */
export const serviceBody = z
  .looseObject({
    ...resourceFields,
    gitOpsEnabled: z.boolean().optional(),
    serviceDefinition: z.looseObject({ type: definitionType, spec: z.looseObject({}) }).optional(),
  })
  .meta({ title: 'Service' });

export const serviceDocument = z.looseObject({ service: serviceBody }).meta({
  title: 'pipewright service document',
  description: 'A service, as sent in the yaml field of POST /ng/api/servicesV2.',
});

export type ServiceBody = z.infer<typeof serviceBody>;
export type ServiceDocument = z.infer<typeof serviceDocument>;
