import { z } from 'zod';
import { orExpression } from './common.js';
import { executionSteps, rollbackSteps } from './pipeline-elements.js';

const variables = z.array(z.looseObject({ name: z.string(), type: z.string(), value: z.unknown().optional() }));

/** The older form: the service and infrastructure are defined inside the stage. */
export const serviceConfig = z.looseObject({
  serviceRef: z.string().meta({ description: 'Service identifier, or <+input>.', examples: ['<+input>'] }),
  serviceDefinition: z
    .looseObject({
      type: z.string().meta({ examples: ['Kubernetes', 'NativeHelm', 'ServerlessAwsLambda'] }),
      spec: z.looseObject({ variables: variables.optional() }).optional(),
    })
    .optional(),
});

export const infrastructure = z.looseObject({
  environmentRef: z.string().meta({ description: 'Environment identifier, or <+input>.' }),
  infrastructureDefinition: z
    .looseObject({
      type: z.string().meta({ examples: ['KubernetesDirect', 'KubernetesGcp'] }),
      spec: z.looseObject({
        connectorRef: z.string().optional(),
        namespace: z.string().optional(),
        releaseName: z.string().optional(),
      }),
    })
    .optional(),
  allowSimultaneousDeployments: orExpression(z.boolean()).optional(),
});

/** The newer form: the stage points at a service and an environment defined on their own. */
export const serviceUse = z
  .looseObject({
    serviceRef: z.string().optional().meta({ description: 'Service identifier, or <+input>.' }),
    serviceInputs: z.unknown().optional(),
    useFromStage: z.looseObject({ stage: z.string() }).optional().meta({ description: 'Deploy the service of an earlier stage.' }),
  })
  .superRefine((value, ctx) => {
    if (value.serviceRef === undefined && value.useFromStage === undefined)
      ctx.addIssue({ code: 'custom', path: [], message: 'service needs serviceRef (or useFromStage)' });
  });

export const environmentUse = z.looseObject({
  environmentRef: z.string().optional().meta({ description: 'Environment identifier, or <+input>.' }),
  useFromStage: z.looseObject({ stage: z.string() }).optional().meta({ description: 'Deploy to the environment of an earlier stage.' }),
  deployToAll: orExpression(z.boolean()).optional(),
  environmentInputs: z.unknown().optional(),
  serviceOverrideInputs: z.unknown().optional(),
  infrastructureDefinitions: orExpression(
    z.array(z.looseObject({ identifier: z.string(), inputs: z.unknown().optional() })),
  )
    .optional()
    .meta({ description: 'Infrastructures of the environment to deploy to, or <+input>.' }),
  provisioner: z.looseObject({}).optional(),
}).superRefine((value, ctx) => {
  // The platform's EnvironmentYamlV2 takes either; the platform's own samples propagate it with useFromStage.
  if (value.environmentRef === undefined && value.useFromStage === undefined)
    ctx.addIssue({ code: 'custom', path: [], message: 'environment needs environmentRef (or useFromStage)' });
});

export const deploymentExecution = z.looseObject({ steps: executionSteps, rollbackSteps: rollbackSteps.optional() });

export const deploymentSpec = z
  .looseObject({
    deploymentType: z.string().optional().meta({ examples: ['Kubernetes', 'NativeHelm', 'Ssh', 'ECS'] }),
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
  .superRefine((spec, ctx) => {
    const has = (key: string) => key in spec;
    if (!['serviceConfig', 'service', 'services'].some(has))
      ctx.addIssue({ code: 'custom', path: [], message: 'a Deployment stage needs a service: service.serviceRef (or serviceConfig)' });
    if (!['infrastructure', 'environment', 'environments', 'environmentGroup'].some(has))
      ctx.addIssue({ code: 'custom', path: [], message: 'a Deployment stage needs an environment: environment.environmentRef (or infrastructure)' });
    if ((has('service') || has('services')) && !has('deploymentType'))
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['deploymentType'], message: 'deploymentType is required' } as never);
  })
  .meta({ title: 'Deployment stage spec' });

export type DeploymentSpec = z.infer<typeof deploymentSpec>;
