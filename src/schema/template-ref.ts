import { z } from 'zod';

/** A reference to a template in place of an inline stage, step, step group or pipeline. */
export const templateRef = z
  .looseObject({
    templateRef: z
      .string()
      .min(1)
      .meta({
        description: 'Template identifier, prefixed with org. or account. for templates outside this project.',
        examples: ['deploy_k8s', 'account.shell_check'],
      }),
    versionLabel: z
      .union([z.string(), z.number()])
      .optional()
      .meta({ description: 'Version; the stable one when absent.', examples: ['v1'] }),
    gitBranch: z.string().optional(),
    templateInputs: z
      .looseObject({})
      .optional()
      .meta({ description: 'Values for the runtime inputs of the template.' }),
  })
  .meta({ title: 'Template reference' });

export type TemplateRef = z.infer<typeof templateRef>;
