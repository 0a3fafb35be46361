import { type Child, type Reference, RESOURCE_BRAND } from '../ir/node.js';
import { captureSite } from '../core/source-site.js';
import { variablesDocument, type VariableOption } from './common-options.js';
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

export interface EnvironmentOptions extends ScopedOptions, OtherFieldsOption {
  /** Production or PreProduction: the platform requires one. */
  readonly type: 'Production' | 'PreProduction';
  /** `{ region: 'eu' }` becomes the platform's list of typed variables. */
  readonly variables?: Readonly<Record<string, VariableOption>>;
  /** `overrides` as on the wire (manifests, config files, variables for every service deployed here). */
  readonly overrides?: { readonly [key: string]: unknown };
}

/** An environment: where services are deployed (Production or PreProduction), with its variables and overrides. */
export interface EnvironmentBuilder extends ResourceBuilder<'environment'> {}

class EnvironmentImpl extends ScopedResource<'environment', EnvironmentOptions> implements EnvironmentBuilder {
  get [RESOURCE_BRAND]() {
    return 'environment' as const;
  }
  protected fields(references: Reference[], _children: Child[]): Record<string, unknown> {
    const { type, variables, overrides } = this.props;
    return {
      type,
      variables: variables && variablesDocument(variables),
      overrides: overrides && wireValue(overrides, references, ['overrides']),
    };
  }
}

const ENVIRONMENT_KEYS = [
  ...SCOPED_KEYS,
  ...keyList<EnvironmentOptions, keyof ScopedOptions>()(['otherFields', 'type', 'variables', 'overrides']),
];

/**
 * An environment (production or pre-production): where services are deployed. Its infrastructure definitions
 * name it as their parent.
 *
 * @example
 * ```ts
 * environment({ identifier: 'prod', project: 'web', type: 'Production' })
 * ```
 */
export function environment(options: EnvironmentOptions): EnvironmentBuilder {
  const issues = checkOptions('environment', options, ENVIRONMENT_KEYS, ['identifier', 'type']);
  return new EnvironmentImpl({ ...options, issues }, captureSite(environment));
}
