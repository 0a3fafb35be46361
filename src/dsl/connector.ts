import type { ConnectorDocument } from '../schema/connector.js';
import { lower } from '../ir/lower.js';
import { type IrNode, type Reference, RESOURCE_BRAND, type Resource, type Scope, resourceNode } from '../ir/node.js';
import { Builder, type Chainable } from './builder.js';
import { captureSite } from '../core/source-site.js';
import { defined, tagsDocument } from './common-options.js';
import type { ProjectBuilder } from './project.js';
import { keyList } from './key-list.js';
import { checkOptions, type WithIssues } from './option-check.js';
import { SCOPED_KEYS, scopeOf, type ScopedOptions } from './scoped-resource.js';

/** Identity, display fields and where it lives: a project, an org, or the account. */
export type ConnectorCommonOptions = ScopedOptions;

export interface ConnectorOptions extends ConnectorCommonOptions {
  /** Connector kind on the wire, e.g. `Github`, `K8sCluster`. */
  readonly type: string;
  readonly spec: Readonly<Record<string, unknown>>;
}

/** A connector: how the platform reaches a repository, registry, cluster or cloud account. */
export interface ConnectorBuilder extends Resource<'connector', ConnectorDocument>, Chainable {
  /** The project builder this connector belongs to, when given as one. */
  readonly projectBuilder: ProjectBuilder | undefined;
}

/** The connector builders' class; users hold it as a `ConnectorBuilder`. */
export class ConnectorImpl extends Builder<ConnectorOptions & WithIssues> implements ConnectorBuilder {
  get [RESOURCE_BRAND]() {
    return 'connector' as const;
  }
  get identifier(): string {
    return this.props.identifier;
  }
  get scope(): Scope {
    return scopeOf(this.props);
  }
  /** The project builder this connector belongs to, when given as one. */
  get projectBuilder(): ProjectBuilder | undefined {
    return typeof this.props.project === 'object' ? this.props.project : undefined;
  }

  protected makeNode(): IrNode {
    const { identifier, name, description, tags, type, spec } = this.props;
    const { org, project } = this.scope;
    const references: Reference[] = this.projectBuilder
      ? [{ path: ['projectIdentifier'], target: this.projectBuilder }]
      : [];
    const body = {
      name: name ?? identifier,
      identifier,
      ...defined({ description, orgIdentifier: org, projectIdentifier: project, tags: tagsDocument(tags) }),
      type,
      spec: structuredClone({ ...spec }),
    };
    return resourceNode('connector', body, { site: this.site, references, issues: this.props.issues });
  }
  toDocument(): ConnectorDocument {
    return lower(this.toNode()) as ConnectorDocument;
  }
}

export const CONNECTOR_COMMON_KEYS: readonly string[] = SCOPED_KEYS;

/**
 * Any connector, given its wire `type` and `spec` as the platform writes them; `connectors.<type>()` has a typed
 * builder for each connector type.
 *
 * @example
 * ```ts
 * connector({ identifier: 'artifactory', type: 'Artifactory', spec: { artifactoryServerUrl: 'https://acme.jfrog.io', auth: { type: 'Anonymous' } } })
 * ```
 */
export function connector(options: ConnectorOptions): ConnectorBuilder {
  const issues = checkOptions('connector', options, [...CONNECTOR_COMMON_KEYS, 'type', 'spec'], ['identifier', 'type']);
  return new ConnectorImpl({ ...options, spec: options.spec ?? {}, issues }, captureSite(connector));
}

export type DockerAuthOption = 'Anonymous' | { readonly username: string; readonly passwordRef: string };

export interface DockerRegistryOptions extends ConnectorCommonOptions {
  /** Registry v2 API URL; defaults to Docker Hub's. */
  readonly url?: string;
  /** DockerHub (default), Harbor, Quay or Other. */
  readonly provider?: 'DockerHub' | 'Harbor' | 'Quay' | 'Other';
  /** `Anonymous` (default), or a username with a reference to a secret holding the password. */
  readonly auth?: DockerAuthOption;
  readonly delegateSelectors?: readonly string[];
}

const DOCKER_REGISTRY_KEYS = [
  ...CONNECTOR_COMMON_KEYS,
  ...keyList<DockerRegistryOptions, keyof ConnectorCommonOptions>()(['url', 'provider', 'auth', 'delegateSelectors']),
];

/** What `connectors.dockerRegistry()` writes for options left out (import leaves out values equal to these). */
export const DOCKER_REGISTRY_DEFAULTS = {
  url: 'https://index.docker.io/v2/',
  provider: 'DockerHub',
  auth: 'Anonymous',
} as const satisfies Pick<DockerRegistryOptions, 'url' | 'provider' | 'auth'>;

export function dockerRegistry(options: DockerRegistryOptions): ConnectorBuilder {
  const issues = checkOptions('connectors.dockerRegistry', options, DOCKER_REGISTRY_KEYS, ['identifier']);
  const { url, provider, auth = DOCKER_REGISTRY_DEFAULTS.auth, delegateSelectors, ...common } = options;
  const spec = defined({
    dockerRegistryUrl: url ?? DOCKER_REGISTRY_DEFAULTS.url,
    providerType: provider ?? DOCKER_REGISTRY_DEFAULTS.provider,
    auth:
      auth === 'Anonymous'
        ? { type: 'Anonymous' }
        : { type: 'UsernamePassword', spec: { username: auth.username, passwordRef: auth.passwordRef } },
    delegateSelectors: delegateSelectors ? [...delegateSelectors] : undefined,
  });
  return new ConnectorImpl({ ...common, type: 'DockerRegistry', spec, issues }, captureSite(dockerRegistry));
}
