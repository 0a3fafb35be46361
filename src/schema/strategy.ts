import { z } from 'zod';
import { orExpression } from './common.js';

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const count = orExpression(z.number().int().positive());

/**
 * One axis of a matrix: its values, or an expression that yields a list. The platform's schema leaves the other
 * keys of a matrix open (its samples set `parallelism: 2` and a `when` map there), so a scalar or a map passes.
 */
const axis = z.union([z.array(z.union([scalar, z.looseObject({})])), scalar, z.looseObject({})]).meta({
  description: 'Values of one matrix axis, read as <+matrix.AXIS>.',
  examples: [['chrome', 'firefox']],
});

/** Named keys are settings; every other key is an axis, so the object is not loose but takes axes. */
export const matrix = z
  .object({
    exclude: z.array(z.record(z.string(), scalar)).optional().meta({ description: 'Combinations to skip.' }),
    maxConcurrency: count.optional().meta({ description: 'How many combinations run at once.' }),
    nodeName: z.string().optional().meta({ description: 'Name of each run, e.g. <+matrix.os>-<+matrix.version>.' }),
  })
  .catchall(axis)
  .meta({ title: 'Matrix', description: 'Run once per combination of the axes.' });

export const repeat = z
  .looseObject({
    times: count.optional().meta({ description: 'Run this many times; <+repeat.item> is not set.' }),
    items: orExpression(z.array(scalar)).optional().meta({ description: 'Run once per item, read as <+repeat.item>.' }),
    maxConcurrency: count.optional(),
    start: orExpression(z.number().int().nonnegative()).optional(),
    end: orExpression(z.number().int().nonnegative()).optional(),
    unit: z.enum(['Count', 'Percentage']).optional(),
    partitionSize: count.optional(),
    nodeName: z.string().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.times === undefined && value.items === undefined)
      ctx.addIssue({ code: 'custom', message: 'repeat needs times or items', path: [] });
  })
  .meta({ title: 'Repeat' });

/** A looping strategy of a stage, step or step group: exactly one of matrix, repeat or parallelism. */
export const strategy = z
  .looseObject({
    matrix: matrix.optional(),
    repeat: repeat.optional(),
    // The platform's schema allows 0 here (int32, minimum 0).
    parallelism: orExpression(z.number().int().nonnegative())
      .optional()
      .meta({ description: 'Run this many copies at once.' }),
  })
  .superRefine((value, ctx) => {
    const present = (['matrix', 'repeat', 'parallelism'] as const).filter((key) => key in value);
    if (present.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `a strategy has exactly one of matrix, repeat or parallelism (found ${present.length ? present.join(', ') : 'none'})`,
      });
  })
  .meta({
    title: 'Looping strategy',
    examples: [{ matrix: { os: ['linux', 'windows'], maxConcurrency: 2 } }, { parallelism: 4 }],
  });

export type Strategy = z.infer<typeof strategy>;

/** Where a stage or step group takes a strategy, the platform also takes a runtime input for the whole of it. */
export const strategyOrInput = orExpression(strategy);
