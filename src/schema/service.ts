import { z } from 'zod';
import { identifier, tags } from './common.js';

/** A service (facts 2 §6, `NGServiceV2InfoConfig`): what is deployed, and how it is defined. */
export const serviceBody = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    orgIdentifier: identifier.optional(),
    projectIdentifier: identifier.optional(),
    description: z.string().nullish(),
    tags: tags.nullish(),
    gitOpsEnabled: z.boolean().optional(),
    serviceDefinition: z.looseObject({ type: z.string(), spec: z.looseObject({}) }).optional(),
  })
  .meta({ title: 'Service' });

export const serviceDocument = z.looseObject({ service: serviceBody }).meta({
  title: 'pipewright service document',
  description: 'A service, as sent in the yaml field of POST /ng/api/servicesV2.',
});

export type ServiceBody = z.infer<typeof serviceBody>;
export type ServiceDocument = z.infer<typeof serviceDocument>;
