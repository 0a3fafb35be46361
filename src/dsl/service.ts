import type { InfrastructureDef, ServiceDefinition } from './catalog/generated/types.js';
import { type Child, type Reference, RESOURCE_BRAND } from '../ir/node.js';
import { captureSite } from '../core/source-site.js';
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

/** A service's deployment type, as the platform names them (`Kubernetes`, `NativeHelm`, `ECS`, ...). */
export type ServiceDeploymentType = ServiceDefinition extends infer D
  ? D extends { readonly type: infer T }
    ? T & string
    : never
  : never;

export interface ServiceOptions extends ScopedOptions, OtherFieldsOption {
  /** `serviceDefinition.type`: how the service is deployed. */
  readonly deploymentType?: ServiceDeploymentType;
  /** `serviceDefinition.spec`: manifests, artifacts, variables, as on the wire (connector builders allowed). */
  readonly spec?: { readonly [key: string]: unknown };
  readonly gitOpsEnabled?: boolean;
}

/** A service: what is deployed (manifests, artifacts) and how (`deploymentType`). */
export interface ServiceBuilder extends ResourceBuilder<'service'> {
  readonly deploymentType: ServiceDeploymentType | undefined;
}

class ServiceImpl extends ScopedResource<'service', ServiceOptions> implements ServiceBuilder {
  get [RESOURCE_BRAND]() {
    return 'service' as const;
  }
  /** The deployment type, for the stages that deploy it. */
  get deploymentType(): ServiceDeploymentType | undefined {
    return this.props.deploymentType;
  }
  protected fields(references: Reference[], _children: Child[]): Record<string, unknown> {
    const { deploymentType, spec, gitOpsEnabled } = this.props;
    return {
      gitOpsEnabled,
      serviceDefinition:
        deploymentType === undefined && spec === undefined
          ? undefined
          : { type: deploymentType, spec: wireValue(spec ?? {}, references, ['serviceDefinition', 'spec']) },
    };
  }
}

const SERVICE_KEYS = [
  ...SCOPED_KEYS,
  ...keyList<ServiceOptions, keyof ScopedOptions>()(['otherFields', 'deploymentType', 'spec', 'gitOpsEnabled']),
];

/**
 * A service: what a Deployment stage deploys (its manifests, artifacts and variables). A stage names it by
 * identifier or takes the builder.
 *
 * @example
 * ```ts
 * service({ identifier: 'web', project: 'web', deploymentType: 'Kubernetes' })
 * ```
 */
export function service(options: ServiceOptions): ServiceBuilder {
  const issues = checkOptions('service', options, SERVICE_KEYS, ['identifier']);
  return new ServiceImpl({ ...options, issues }, captureSite(service));
}

export type InfrastructureType = InfrastructureDef extends infer D
  ? D extends { readonly type: infer T }
    ? T & string
    : never
  : never;
