import { z } from 'zod';
import { identifier } from './common.js';
import { resourceFields } from './resource-fields.js';

/** An input set (facts 2 §6): values for a pipeline's runtime inputs, shaped like the pipeline itself. */
export const inputSetBody = z
  .looseObject({
    ...resourceFields,
    pipeline: z.looseObject({ identifier }),
  })
  .meta({ title: 'Input set' });

export const inputSetDocument = z.looseObject({ inputSet: inputSetBody }).meta({
  title: 'pipewright input set document',
  description: 'An input set, as sent to POST /pipeline/api/inputSets.',
});

/** An overlay input set: other input sets of the same pipeline, applied in order. */
export const overlayInputSetBody = z
  .looseObject({
    ...resourceFields,
    pipelineIdentifier: identifier,
    inputSetReferences: z.array(z.string()),
  })
  .meta({ title: 'Overlay input set' });

export const overlayInputSetDocument = z.looseObject({ overlayInputSet: overlayInputSetBody }).meta({
  title: 'pipewright overlay input set document',
  description: 'An overlay input set: input sets of one pipeline applied in order.',
});

export type InputSetBody = z.infer<typeof inputSetBody>;
export type InputSetDocument = z.infer<typeof inputSetDocument>;
export type OverlayInputSetBody = z.infer<typeof overlayInputSetBody>;
export type OverlayInputSetDocument = z.infer<typeof overlayInputSetDocument>;
