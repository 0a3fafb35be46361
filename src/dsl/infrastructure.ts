import { type Child, type Reference, RESOURCE_BRAND, type Scope } from '../ir/node.js';
import { captureSite } from '../core/source-site.js';
import type { EnvironmentBuilder } from './environment.js';
import { keyList } from './key-list.js';
import { checkOptions } from './option-check.js';
import { wireValue } from './references.js';
import {
  SCOPED_KEYS,
  ScopedResource,
  type OtherFieldsOption,
  type ResourceBuilder,
  type ScopedOptions,
} from './scoped-resource.js';
import type { InfrastructureType, ServiceDeploymentType } from './service.js';

export interface InfrastructureOptions extends ScopedOptions, OtherFieldsOption {
  /** The environment it belongs to: a builder (checked to be compiled too, and giving the scope) or its identifier. */
  readonly environment: EnvironmentBuilder | string;
  /** The deployment type it serves (`Kubernetes`, `Ssh`, ...), as the services deployed to it. */
  readonly deploymentType: ServiceDeploymentType;
  /** Its own type (`KubernetesDirect`, `KubernetesGcp`, `Pdc`, ...). */
  readonly type: InfrastructureType;
  /** `spec` as on the wire; a connector builder may stand for `connectorRef`. */
  readonly spec: { readonly [key: string]: unknown };
  readonly allowSimultaneousDeployments?: boolean;
  readonly scopedServices?: readonly string[];
}

/** An infrastructure definition of an environment. */
export interface InfrastructureBuilder extends ResourceBuilder<'infrastructure'> {
  /** The identifier of its environment. */
  readonly environmentRef: string;
}

class InfrastructureImpl
  extends ScopedResource<'infrastructure', InfrastructureOptions>
  implements InfrastructureBuilder
{
  get [RESOURCE_BRAND]() {
    return 'infrastructure' as const;
  }
  /** Where it lives: given, else its environment builder's scope. */
  override get scope(): Scope {
    const { environment, org, project, account } = this.props;
    if (typeof environment === 'object' && org === undefined && project === undefined && !account)
      return environment.scope;
    return super.scope;
  }
  /** The identifier of its environment (its parent on the platform). */
  get environmentRef(): string {
    const { environment } = this.props;
    return typeof environment === 'object' ? environment.identifier : environment;
  }
  protected fields(references: Reference[], _children: Child[]): Record<string, unknown> {
    const { environment, deploymentType, type, spec, allowSimultaneousDeployments, scopedServices } = this.props;
    if (typeof environment === 'object') references.push({ path: ['environmentRef'], target: environment });
    return {
      environmentRef: this.environmentRef,
      deploymentType,
      type,
      spec: wireValue(spec, references, ['spec']),
      allowSimultaneousDeployments,
      scopedServices: scopedServices && [...scopedServices],
    };
  }
}

const INFRASTRUCTURE_KEYS = [
  ...SCOPED_KEYS,
  ...keyList<InfrastructureOptions, keyof ScopedOptions>()([
    'otherFields',
    'environment',
    'deploymentType',
    'type',
    'spec',
    'allowSimultaneousDeployments',
    'scopedServices',
  ]),
];

/**
 * An infrastructure definition: one deployment target inside an environment, such as a cluster and namespace or a
 * set of hosts.
 *
 * @example
 * ```ts
 * infrastructure({
 *   identifier: 'prodCluster',
 *   project: 'web',
 *   environment: 'prod',
 *   deploymentType: 'Kubernetes',
 *   type: 'KubernetesDirect',
 *   spec: { connectorRef: 'cluster', namespace: 'web', releaseName: 'release-<+INFRA_KEY>' },
 * })
 * ```
 */
export function infrastructure(options: InfrastructureOptions): InfrastructureBuilder {
  const issues = checkOptions('infrastructure', options, INFRASTRUCTURE_KEYS, [
    'identifier',
    'environment',
    'deploymentType',
    'type',
    'spec',
  ]);
  return new InfrastructureImpl({ ...options, issues }, captureSite(infrastructure));
}
