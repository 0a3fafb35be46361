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

/**
 * The commands' use cases, to call in memory: what `pipewright publish`, `pull`, `render` and `run` do, without the
 * binary. They print nothing; they report what happens through `onEvent` and return the report.
 *
 * @example
 * ```ts
 * async function planThenPull() {
 *   const report = await publishFolder('out', { dryRun: true });
 *   const pulled = await pull({ org: 'default', project: 'shop', out: 'shop' });
 *   const run = await render({ pipeline: 'deploy', inputSets: ['prod'] });
 *   return { report, pulled, run };
 * }
 * ```
 */
export {
  publishFolder,
  type PublishEvent,
  type PublishFolderOptions,
  type PublishFolderReport,
  type PublishTarget,
} from './publish/publish-folder.js';
export { pull, type PullEvent, type PullOptions, type PullResult } from './pull/pull.js';
export { render, type RenderFormat, type RenderOptions, type RenderResult } from './render/render.js';
export {
  runPipeline,
  type RunEvent,
  type RunOptions,
  type RunOutcome,
  type RunResult,
  type RunStage,
  type RunStep,
} from './run/run.js';
