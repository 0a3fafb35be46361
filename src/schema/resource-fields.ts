import { z } from 'zod';
import { identifier, scopeIdentifier, tags } from './common.js';

/**
 * The fields every resource beside pipelines shares (facts 2 §6): name and identifier required, scope,
 * description and tags optional (Git Experience exports write null for an empty description or tags).
 */
export const resourceFields = {
  name: z.string().min(1),
  identifier,
  // As for pipelines and connectors: the platform takes the scope from the request, so a scope that is not an
  // identifier is the invalid-scope warning, not a refusal (docs/troubleshooting.md, invalid-scope).
  orgIdentifier: scopeIdentifier.optional(),
  projectIdentifier: scopeIdentifier.optional(),
  description: z.string().nullish(),
  tags: tags.nullish(),
};
