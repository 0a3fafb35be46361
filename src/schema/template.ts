import { z } from 'zod';
import { identifier, tags } from './common.js';

export const TEMPLATE_TYPES = [
  'Step',
  'Stage',
  'Pipeline',
  'StepGroup',
  'CustomDeployment',
  'ArtifactSource',
  'MonitoredService',
  'SecretManager',
  'Workspace',
  'Notification',
] as const;

/** The platform's pattern for a template's version label (facts 2 §6). */
export const VERSION_LABEL_PATTERN = /^[0-9a-zA-Z][^\s/&]{0,127}$/;

/** A template (facts 2 §6): a reusable step, stage, pipeline or step group, one version of it per document. */
export const templateBody = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    versionLabel: z.string().regex(VERSION_LABEL_PATTERN, { error: 'is not a version label: start with a letter or digit, no spaces, / or &' }),
    type: z.enum(TEMPLATE_TYPES),
    orgIdentifier: identifier.optional(),
    projectIdentifier: identifier.optional(),
    description: z.string().nullish(),
    tags: tags.nullish(),
    spec: z.looseObject({}).optional(),
  })
  .meta({ title: 'Template' });

export const templateDocument = z.looseObject({ template: templateBody }).meta({
  title: 'pipewright template document',
  description: 'A template version, as sent to POST /template/api/templates.',
});

export type TemplateBody = z.infer<typeof templateBody>;
export type TemplateDocument = z.infer<typeof templateDocument>;
