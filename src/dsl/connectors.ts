import { catalogConnectors, type CatalogConnectors } from './catalog/catalog-connector.js';
import { dockerRegistry } from './connector.js';

/**
 * Typed builders for every connector type of the platform (from the catalogue), with `dockerRegistry` written
 * by hand (Docker Hub and anonymous access by default).
 */
export const connectors: Omit<CatalogConnectors, 'dockerRegistry'> & { readonly dockerRegistry: typeof dockerRegistry } = Object.freeze({
  ...catalogConnectors,
  dockerRegistry,
});
