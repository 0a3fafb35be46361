import { z } from 'zod';
import { documentPartSchema } from './catalog-schemas.js';

/**
 * A trigger (facts 2 §6): what starts a pipeline (a webhook, a new artifact or manifest, a schedule) and with
 * which inputs (`inputYaml`, or `inputSetRefs`). Its structure is the published schema's.
 */
export const triggerBody = documentPartSchema('trigger').meta({ title: 'Trigger' });

export const triggerDocument = z.looseObject({ trigger: triggerBody }).meta({
  title: 'pipewright trigger document',
  description: 'A trigger, as sent to POST /pipeline/api/triggers.',
});
