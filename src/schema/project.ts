import { z } from 'zod';
import { identifier, tags } from './common.js';

export const PROJECT_MODULES = [
  'CD',
  'CI',
  'CV',
  'CF',
  'CE',
  'STO',
  'CHAOS',
  'SRM',
  'IACM',
  'CODE',
  'CORE',
  'PMS',
  'TEMPLATESERVICE',
] as const;

export const projectBody = z
  .looseObject({
    name: z.string().min(1).meta({ description: 'Display name.' }),
    identifier,
    orgIdentifier: identifier.meta({ description: 'Owning organization; `default` always exists.' }),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, { error: 'is not a hex colour like #0063F7' })
      .optional()
      .meta({ description: 'Hex colour with a leading #.', examples: ['#0063F7'] }),
    description: z.string().optional(),
    tags: tags.optional(),
    modules: z.array(z.string()).optional().meta({ description: 'Modules; the service fills them in when empty.' }),
  })
  .meta({ title: 'Project' });

export const projectDocument = z.looseObject({ project: projectBody }).meta({
  title: 'pipewright project document',
  description: 'A platform project, as sent to POST /gateway/ng/api/projects.',
});

export type ProjectBody = z.infer<typeof projectBody>;
export type ProjectDocument = z.infer<typeof projectDocument>;
