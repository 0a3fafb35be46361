import { z } from 'zod';
import { catalogData } from '../catalog/catalog.js';
import { catalogDefinition } from './catalog-schemas.js';
import { orExpression } from './common.js';
import { executionSteps, rollbackSteps } from './pipeline-elements.js';

/**
 * The older form: the service and infrastructure defined inside the stage. Taken whole from the platform's schema
 * (`ServiceConfig`, `PipelineInfrastructure`), so every form it knows is known here: `serviceRef`, an inline
 * `service: { name, identifier }`, `useFromStage`, `stageOverrides`, a `serviceDefinition` with its artifacts and
 * manifests; `environmentRef` or an inline `environment: { name, identifier, type }`, `infrastructureDefinition`.
 */
export const serviceConfig = catalogDefinition('ServiceConfig');
/** The deployment types the schema's DeploymentStageConfig lists (an enum there: no expression). */
const DEPLOYMENT_TYPES = deploymentTypes();
export const infrastructure = catalogDefinition('PipelineInfrastructure');

/** The newer form: the stage points at a service and an environment defined on their own. */
export const serviceUse = z
  .looseObject({
    serviceRef: z.string().optional().meta({ description: 'Service identifier, or <+input>.' }),
    serviceInputs: z.unknown().optional(),
    useFromStage: z
      .looseObject({ stage: z.string() })
      .optional()
      .meta({ description: 'Deploy the service of an earlier stage.' }),
  })
  .superRefine((value, ctx) => {
    if (value.serviceRef === undefined && value.useFromStage === undefined)
      ctx.addIssue({ code: 'custom', path: [], message: 'service needs serviceRef (or useFromStage)' });
  });

export const environmentUse = z
  .looseObject({
    environmentRef: z.string().optional().meta({ description: 'Environment identifier, or <+input>.' }),
    useFromStage: z
      .looseObject({ stage: z.string() })
      .optional()
      .meta({ description: 'Deploy to the environment of an earlier stage.' }),
    deployToAll: orExpression(z.boolean()).optional(),
    environmentInputs: z.unknown().optional(),
    serviceOverrideInputs: z.unknown().optional(),
    infrastructureDefinitions: orExpression(
      z.array(z.looseObject({ identifier: z.string(), inputs: z.unknown().optional() })),
    )
      .optional()
      .meta({ description: 'Infrastructures of the environment to deploy to, or <+input>.' }),
    provisioner: z.looseObject({}).optional(),
  })
  .superRefine((value, ctx) => {
    // The platform's EnvironmentYamlV2 takes either; the platform's own samples propagate it with useFromStage.
    if (value.environmentRef === undefined && value.useFromStage === undefined)
      ctx.addIssue({ code: 'custom', path: [], message: 'environment needs environmentRef (or useFromStage)' });
  });

export const deploymentExecution = z.looseObject({ steps: executionSteps, rollbackSteps: rollbackSteps.optional() });

export const deploymentSpec = z
  .looseObject({
    deploymentType: z
      .enum(DEPLOYMENT_TYPES)
      .optional()
      .meta({ examples: ['Kubernetes', 'NativeHelm', 'Ssh', 'ECS'] }),
    serviceConfig: serviceConfig.optional(),
    infrastructure: infrastructure.optional(),
    service: serviceUse.optional(),
    services: z.looseObject({}).optional(),
    environment: environmentUse.optional(),
    environments: z.looseObject({}).optional(),
    environmentGroup: z.looseObject({}).optional(),
    gitOpsEnabled: z.boolean().optional(),
    execution: deploymentExecution,
  })
  // What the platform refuses when it saves the pipeline, beyond the schema: DeploymentStageFilterJsonCreatorV2
  // (harness-core 125-cd-nextgen/.../cdng/creator/filters/DeploymentStageFilterJsonCreatorV2.java, `validate`,
  // `validateV1` L178-206, `validateV2` L236-245, L291-293, L370-372, L555, L609; docs/fidelity.md).
  .superRefine((spec, ctx) => {
    const has = (key: string) => key in spec;
    if (!['serviceConfig', 'service', 'services'].some(has))
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'a Deployment stage needs a service: service.serviceRef (or serviceConfig)',
      });
    if (!['infrastructure', 'environment', 'environments', 'environmentGroup'].some(has))
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'a Deployment stage needs an environment: environment.environmentRef (or infrastructure)',
      });
    if ((has('service') || has('services')) && !has('deploymentType'))
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'string',
        input: undefined,
        path: ['deploymentType'],
        message: 'deploymentType is required',
      } as never);
    if (has('service') && has('infrastructure'))
      ctx.addIssue({
        code: 'custom',
        path: ['infrastructure'],
        message:
          'infrastructure goes with serviceConfig (the older form); with service, name the environment in environment',
      });
    if (has('serviceConfig')) {
      if (!has('infrastructure') && ['environment', 'environments', 'environmentGroup'].some(has))
        ctx.addIssue({
          code: 'custom',
          path: [],
          message:
            'with serviceConfig (the older form) the stage names its environment in infrastructure, not environment',
        });
      if (has('deploymentType'))
        ctx.addIssue({
          code: 'custom',
          path: ['deploymentType'],
          message:
            'deploymentType goes with service (the newer form), not with serviceConfig: the service definition has the type',
        });
    }
  })
  .meta({ title: 'Deployment stage spec' });

export type DeploymentSpec = z.infer<typeof deploymentSpec>;

function deploymentTypes(): [string, ...string[]] {
  const spec = catalogData.stages.Deployment?.spec;
  const field =
    Array.isArray(spec) && spec[0] === 'obj' ? (spec[1] as Record<string, unknown>).deploymentType : undefined;
  return Array.isArray(field) && field[0] === 'enum' ? (field.slice(1) as [string, ...string[]]) : ['Kubernetes'];
}
