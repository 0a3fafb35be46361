import { z } from 'zod';
import { orExpression } from './common.js';
import { executionSteps } from './pipeline-elements.js';

const variables = z.array(z.looseObject({ name: z.string(), type: z.string(), value: z.unknown().optional() }));

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

export const deploymentSpec = z.looseObject({
  deploymentType: z.string().optional(),
  serviceConfig: serviceConfig.optional(),
  infrastructure: infrastructure.optional(),
  service: z.looseObject({ serviceRef: z.string() }).optional(),
  environment: z.looseObject({ environmentRef: z.string() }).optional(),
  execution: z.looseObject({ steps: executionSteps, rollbackSteps: executionSteps.optional() }),
});

/** Typed specs of the stage types pipewright models; any other `type` passes through unchecked. */
export const stageSpecs: Record<string, z.ZodType> = {
  Deployment: deploymentSpec,
};

export type DeploymentSpec = z.infer<typeof deploymentSpec>;

/** Stage types of the platform that pipewright knows by name; used for "did you mean". */
export const KNOWN_STAGE_TYPES: readonly string[] = [
  'Deployment', 'CI', 'Approval', 'Custom', 'Pipeline', 'FeatureFlag', 'SecurityTests', 'IACM',
];
