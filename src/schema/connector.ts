import { z } from 'zod';
import { checkSpecByType, delegateSelectors, identifier, scopeIdentifier, tags, typedBy } from './common.js';

export const DOCKER_PROVIDERS = ['DockerHub', 'Harbor', 'Quay', 'Other'] as const;

export const dockerRegistrySpec = z.looseObject({
  dockerRegistryUrl: z.url({ error: 'is not a URL such as https://index.docker.io/v2/' }).meta({
    description: "URL of the registry's v2 API.",
    examples: ['https://index.docker.io/v2/'],
  }),
  providerType: z.enum(DOCKER_PROVIDERS),
  auth: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('Anonymous') }),
    z.looseObject({
      type: z.literal('UsernamePassword'),
      spec: z.looseObject({
        username: z.string().optional(),
        usernameRef: z.string().optional(),
        passwordRef: z.string().meta({ description: 'Reference to a secret holding the password.' }),
      }),
    }),
  ]),
  delegateSelectors: delegateSelectors.optional(),
});

/** Typed specs of the connector kinds pipewright models; any other `type` passes through unchecked. */
export const connectorSpecs: Record<string, z.ZodType> = {
  DockerRegistry: dockerRegistrySpec,
};

export const connectorBody = typedBy(
  z
    .looseObject({
      name: z.string().min(1),
      identifier,
      description: z.string().optional(),
      orgIdentifier: scopeIdentifier.optional(),
      projectIdentifier: scopeIdentifier.optional(),
      tags: tags.optional(),
      type: z.string().meta({ description: 'Connector kind, e.g. DockerRegistry, Github, K8sCluster.' }),
      spec: z.looseObject({}),
    })
    .superRefine((body, ctx) => checkSpecByType(connectorSpecs, body.type, body.spec, ctx))
    .meta({ title: 'Connector' }),
  connectorSpecs,
);

export const connectorDocument = z.looseObject({ connector: connectorBody }).meta({
  title: 'pipewright connector document',
  description: 'A platform connector, as sent to POST /gateway/ng/api/connectors.',
});

export type DockerRegistrySpec = z.infer<typeof dockerRegistrySpec>;
export type ConnectorBody = z.infer<typeof connectorBody>;
export type ConnectorDocument = z.infer<typeof connectorDocument>;
