import { z } from 'zod';
import { identifier, tags } from './common.js';

/**
 * The fields every resource beside pipelines shares (facts 2 §6): name and identifier required, scope,
 * description and tags optional (Git Experience exports write null for an empty description or tags).
 */
export const resourceFields = {
  name: z.string().min(1),
  identifier,
  orgIdentifier: identifier.optional(),
  projectIdentifier: identifier.optional(),
  description: z.string().nullish(),
  tags: tags.nullish(),
};
