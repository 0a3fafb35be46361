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
    // Looked up as written when the pipeline is saved (its templates are resolved to check it): an expression
    // names no version, and the platform refuses the pipeline, "The template identifier [..] and version label
    // [..] does not exist" (harness-core `template-service/.../template/helpers/TemplateMergeServiceHelper.java`
    // L145-175; `TemplateLinkConfig.java` L42 is a plain String with the version label pattern).
    versionLabel: z
      .union([
        z.string().refine((label) => !label.includes('<+'), {
          error:
            'a template version cannot be an expression: the platform looks the version up as written when it saves the pipeline',
        }),
        z.number(),
      ])
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
