import { z } from 'zod';
import { delegateSelectors, duration, orExpression } from './common.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'] as const;

const typedVariables = z.array(
  z.looseObject({ name: z.string(), type: z.enum(['String', 'Number', 'Secret']), value: z.union([z.string(), z.number()]) }),
);

export const httpSpec = z
  .looseObject({
    url: z.string().meta({ examples: ['https://example.com/health'] }),
    method: orExpression(z.enum(HTTP_METHODS)).meta({ description: 'HTTP method.' }),
    headers: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
    requestBody: z.string().optional(),
    assertion: z.string().optional().meta({ examples: ['<+httpResponseCode> == 200'] }),
    inputVariables: typedVariables.optional(),
    outputVariables: typedVariables.optional(),
    certificate: z.string().optional(),
    certificateKey: z.string().optional(),
    delegateSelectors: delegateSelectors.optional(),
  })
  .meta({ title: 'Http step spec' });

export const waitSpec = z
  .looseObject({ duration: duration.meta({ description: 'How long to wait, e.g. 10m.' }) })
  .meta({ title: 'Wait step spec' });

export const barrierSpec = z
  .looseObject({ barrierRef: z.string().meta({ description: 'Identifier of a barrier in pipeline.flowControl.barriers.' }) })
  .meta({ title: 'Barrier step spec' });

export const emailSpec = z
  .looseObject({
    to: z.string().meta({ description: 'Recipients, comma-separated.' }),
    cc: z.string().optional(),
    subject: z.string(),
    body: z.string(),
  })
  .meta({ title: 'Email step spec' });


