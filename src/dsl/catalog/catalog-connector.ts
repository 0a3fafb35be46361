import { captureSite } from '../../core/source-site.js';
import {
  CONNECTOR_COMMON_KEYS,
  ConnectorImpl,
  type ConnectorBuilder,
  type ConnectorCommonOptions,
} from '../connector.js';
import { checkOptions } from '../option-check.js';
import { catalog, connectorSpecKeys } from '../../catalog/catalog.js';
import type { ConnectorBuilderTypes, ConnectorSpecs } from './generated/types.js';
import { assignFields, setField } from '../../core/own-field.js';

/** A connector type the catalogue knows. */
type ConnectorType = keyof ConnectorSpecs & string;

type CommonKey = keyof ConnectorCommonOptions | 'spec';
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Options of a catalogue connector: where it lives (project, org or account), and its wire `spec` fields flat
 * (`type` here is the spec's own, e.g. a GitHub connector's `Account` or `Repo`); `spec` for fields as they are.
 */
export type CatalogConnectorOptions<T extends ConnectorType> = ConnectorCommonOptions &
  DistributiveOmit<ConnectorSpecs[T], CommonKey> & { readonly spec?: { readonly [key: string]: unknown } };

export type CatalogConnectorFactory<T extends ConnectorType> = (
  options: CatalogConnectorOptions<T>,
) => ConnectorBuilder;

/** The builder of one catalogue connector type; unknown option keys are reported at the call. */
function catalogConnector<T extends ConnectorType>(type: T): CatalogConnectorFactory<T> {
  const name = `connectors.${catalog.connectors.find((entry) => entry.type === type)?.builder ?? type}`;
  const factory = (options: Record<string, unknown>) => {
    const site = captureSite(factory);
    const specKeys = connectorSpecKeys(type) ?? [];
    const { spec: explicit, ...rest } = options ?? {};
    const common: Record<string, unknown> = {};
    const spec: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest))
      setField(CONNECTOR_COMMON_KEYS.includes(key) ? common : spec, key, value);
    const issues = checkOptions(name, rest, [...CONNECTOR_COMMON_KEYS, ...specKeys], ['identifier']);
    if (explicit && typeof explicit === 'object') assignFields(spec, explicit);
    return new ConnectorImpl({ ...(common as unknown as ConnectorCommonOptions), type, spec, issues }, site);
  };
  return factory as unknown as CatalogConnectorFactory<T>;
}

/**
 * One builder per connector type of the platform, by builder name (`github`, `k8sCluster`); the generated
 * `CatalogConnectors` (generated/builders.ts) types each with its named options.
 */
export const catalogConnectors: {
  readonly [Builder in keyof ConnectorBuilderTypes]: CatalogConnectorFactory<ConnectorBuilderTypes[Builder]>;
} = Object.freeze(
  Object.fromEntries(catalog.connectors.map((entry) => [entry.builder, catalogConnector(entry.type as ConnectorType)])),
) as never;
