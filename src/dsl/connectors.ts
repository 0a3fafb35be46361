import { catalogConnectors } from './catalog/catalog-connector.js';
import type { CatalogConnectors } from './catalog/generated/builders.js';
import { dockerRegistry } from './connector.js';

/**
 * A typed builder for every connector type of the platform (from the catalogue): the connector's settings and
 * credentials, with secrets by reference. `dockerRegistry` is written by hand (Docker Hub, anonymous by default).
 *
 * @example
 * ```ts
 * connectors.github({
 *   identifier: 'github',
 *   type: 'Repo',
 *   url: 'https://github.com/acme/web',
 *   authentication: { type: 'Http', spec: { type: 'UsernameToken', spec: { username: 'bot', tokenRef: 'github_token' } } },
 * })
 * ```
 */
export const connectors: Omit<CatalogConnectors, 'dockerRegistry'> & {
  readonly dockerRegistry: typeof dockerRegistry;
} = Object.freeze({
  ...catalogConnectors,
  dockerRegistry,
});
