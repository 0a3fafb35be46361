/**
 * pipewright: delivery-platform projects, connectors and pipelines as typed TypeScript.
 * Builders live in ./dsl, wire schemas in ./schema, the compiler in ./compile.
 */
export * from './dsl/index.js';
export * from './dsl/catalog/index.js';
export type { PipewrightTypeError } from './core/type-error.js';
export { defineConfig } from './compile/config.js';
export type { PipewrightConfig } from './compile/config.js';
export * as schema from './schema/index.js';
export {
  createClient,
  ApiError,
  publishDocument,
  publishDocuments,
  type Client,
  type ClientOptions,
  type GraphqlOptions,
  type PublishReport,
} from './publish/index.js';
