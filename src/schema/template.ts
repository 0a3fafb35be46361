import { z } from 'zod';
import { documentPartSchema, templateSpecRegistry } from './catalog-schemas.js';
import { checkSpecByType, identifier, scopeIdentifier, typedBy } from './common.js';
import { step, stepGroup } from './pipeline-elements.js';
import { pipelineBody, stage } from './pipeline.js';
import { stageSpecs } from './stages.js';
import { stepSpecs } from './steps.js';

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
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

export { VERSION_LABEL_PATTERN } from '../catalog/identity-rules.js';

/**
 * The part a template holds is the part a pipeline holds, less what the pipeline's use of it supplies (its
 * identifier and name): the same schemas check it, with those fields left out (the published schema's
 * `*_template` nodes say the same).
 */
const withoutIdentity = <T extends z.ZodObject>(
  schema: T,
  registry?: Readonly<Record<string, z.ZodType>>,
  extra: z.core.$ZodLooseShape = {},
) => {
  const partial = (schema as unknown as z.ZodObject).safeExtend({
    identifier: identifier.optional(),
    name: z.string().optional(),
    ...extra,
  } as never);
  return registry ? typedBy(partial, registry) : partial;
};

/** The `spec` of each template type: a step, stage, step group or pipeline as pipewright checks them; the others from the published schema. */
export const templateSpecs: Readonly<Record<string, z.ZodType>> = Object.freeze(
  Object.defineProperties(
    {},
    {
      Step: { enumerable: true, get: () => (stepTemplateSpec ??= withoutIdentity(step, stepSpecs)) },
      Stage: { enumerable: true, get: () => (stageTemplateSpec ??= withoutIdentity(stage, stageSpecs)) },
      StepGroup: { enumerable: true, get: () => (stepGroupTemplateSpec ??= withoutIdentity(stepGroup)) },
      Pipeline: {
        enumerable: true,
        get: () =>
          (pipelineTemplateSpec ??= withoutIdentity(pipelineBody, undefined, {
            orgIdentifier: scopeIdentifier.optional(),
            projectIdentifier: scopeIdentifier.optional(),
          })),
      },
      ...Object.fromEntries(
        Object.keys(templateSpecRegistry).map((type) => [
          type,
          { enumerable: true, get: () => templateSpecRegistry[type] },
        ]),
      ),
    },
  ) as Record<string, z.ZodType>,
);
let stepTemplateSpec: z.ZodType | undefined;
let stageTemplateSpec: z.ZodType | undefined;
let stepGroupTemplateSpec: z.ZodType | undefined;
let pipelineTemplateSpec: z.ZodType | undefined;

/**
 * A template (facts 2 §6): one version of a reusable step, stage, pipeline or step group. Its own fields are
 * the published schema's; which version is the stable one is not in the YAML (a separate call sets it).
 */
export const templateBody = typedBy(
  (documentPartSchema('template') as z.ZodObject)
    .safeExtend({
      // Text, as a pipeline's (the template schema leaves them out): one that cannot be an identifier is the
      // `invalid-scope` warning, not an error.
      orgIdentifier: scopeIdentifier.optional(),
      projectIdentifier: scopeIdentifier.optional(),
      spec: z.looseObject({}).optional(),
    })
    // A template saved without a spec (a stub) is still a template the platform stores.
    .superRefine((value, ctx) => {
      if (value.spec !== undefined) checkSpecByType(templateSpecs, value.type, value.spec, ctx);
    })
    .meta({ title: 'Template' }),
  templateSpecs,
);

export const templateDocument = z.looseObject({ template: templateBody }).meta({
  title: 'pipewright template document',
  description: 'A template version, as sent to POST /template/api/templates.',
});

export type TemplateBody = z.infer<typeof templateBody>;
export type TemplateDocument = z.infer<typeof templateDocument>;
