import { z } from 'zod';
import { CONNECTOR_TYPES } from '../catalog/catalog.js';
import { connectorSpecRegistry } from './catalog-schemas.js';
import {
  checkSpecByType,
  delegateSelectors,
  EVERY_PROBLEM,
  identifier,
  scopeIdentifier,
  tags,
  typedBy,
} from './common.js';

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

/** Connector specs modelled by hand (with their own messages and examples); every other type is the catalogue's. */
const HAND_MODELLED_CONNECTOR_SPECS: Readonly<Record<string, z.ZodType>> = { DockerRegistry: dockerRegistrySpec };

/**
 * The `spec` of every connector type the platform's connector schema knows, by `type`: checked as step specs
 * are (a Github connector without `spec.type` is refused, as the platform's schema refuses it).
 */
export const connectorSpecs: Readonly<Record<string, z.ZodType>> = Object.freeze(
  Object.defineProperties(
    {},
    Object.fromEntries(
      CONNECTOR_TYPES.map((type) => [
        type,
        { enumerable: true, get: () => HAND_MODELLED_CONNECTOR_SPECS[type] ?? connectorSpecRegistry[type] },
      ]),
    ),
  ) as Record<string, z.ZodType>,
);

export const connectorBody = typedBy(
  z
    .looseObject({
      name: z.string().min(1),
      identifier,
      description: z.string().optional(),
      orgIdentifier: scopeIdentifier.optional(),
      projectIdentifier: scopeIdentifier.optional(),
      tags: tags.optional(),
      // The connector schema's enum: the platform serves it (GET /ng/api/yaml-schema?entityType=Connectors).
      type: z
        .enum(CONNECTOR_TYPES as [string, ...string[]])
        .meta({ description: 'Connector kind, e.g. DockerRegistry, Github, K8sCluster.' }),
      spec: z.looseObject({}),
    })
    .superRefine((body, ctx) => {
      // A project's connector names its org: connector.project.json requires both (facts-1 §8, ConnectorInfo).
      if (body.projectIdentifier !== undefined && body.orgIdentifier === undefined)
        ctx.addIssue({
          code: 'invalid_type',
          expected: 'string',
          input: undefined,
          path: ['orgIdentifier'],
          message: 'orgIdentifier is required with projectIdentifier',
        } as never);
      checkSpecByType(connectorSpecs, body.type, body.spec, ctx);
    }, EVERY_PROBLEM)
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
