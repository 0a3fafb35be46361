import { z } from 'zod';
import { CONFIGURABLE_CODES, type RuleSettings } from '../check/rule-settings.js';

export const configSchema = z.strictObject({
  /** Globs of definition files compiled when `pipewright compile` gets no entries. */
  include: z.array(z.string()).optional(),
  /** Output folder of compile, and input of publish; default `out`. */
  outDir: z.string().optional(),
  /** Platform address, e.g. https://app.harness.io. HARNESS_BASE_URL and --base-url win over it. */
  baseUrl: z.string().optional(),
  /** Account identifier. HARNESS_ACCOUNT_ID and --account win over it. */
  accountId: z.string().optional(),
  /** Requests per minute publish allows itself; default 1000. */
  rateLimit: z.number().int().positive().optional(),
  /** Where publish keeps pipelines: `inline` in the platform (default) or `remote` in Git. --store wins over it. */
  store: z.enum(['inline', 'remote']).optional(),
  /**
   * Git-stored pipelines: the platform's Git connector, the repository and branch (--git-connector, --repo,
   * --branch win over them), and the file of a new pipeline, with {org}, {project} and {identifier}; default
   * the platform's layout `.harness/orgs/{org}/projects/{project}/pipelines/{identifier}.yaml`.
   */
  git: z
    .strictObject({
      connector: z.string().min(1).optional(),
      repo: z.string().min(1).optional(),
      branch: z.string().min(1).optional(),
      filePath: z.string().min(1).optional(),
    })
    .optional(),
  /**
   * Documents the platform keeps as files in Git (pipelines, input sets, services, environments, infrastructure
   * definitions), each where it lives, by `<kind>:<org>/<project>/[<parent>/]<identifier>` (e.g.
   * `pipeline:default/shop/deploy`, `service:default/shop/api`): publish reads and updates each on its own
   * connector, repository, branch and file, whatever `store` says. `pipewright pull` writes it.
   */
  gitFiles: z
    .record(
      z.string(),
      z.strictObject({
        connector: z.string().min(1),
        repo: z.string().min(1),
        branch: z.string().min(1),
        filePath: z.string().min(1),
      }),
    )
    .optional(),
  /** Add a `# yaml-language-server: $schema=` line to compiled files. */
  schemaModeline: z.boolean().optional(),
  /**
   * Seconds a definition file (with what it imports) may run while compile evaluates it, default 60; past it, it
   * is stopped and named (`definition-timeout`). 0: no limit. `compile --definition-timeout` wins over it.
   */
  definitionTimeout: z.number().nonnegative().optional(),
  /**
   * Switch a rule off, or report it at another severity, in compile and validate: `{ 'possible-secret': 'off',
   * 'unknown-reference': 'error', 'unknown-key': 'warning' }`. Every code about a document is configurable, the
   * schema's included (docs/troubleshooting.md#configuring-rules); lowering what the platform refuses moves the
   * failure to publish time, so prefer `.suppress()` or a disable comment at the one place it is wrong.
   */
  rules: z.partialRecord(z.enum(CONFIGURABLE_CODES), z.enum(['off', 'warning', 'error'])).optional(),
});

export type PipewrightConfig = Omit<z.infer<typeof configSchema>, 'rules'> & { readonly rules?: RuleSettings };

/** Typed configuration for `pipewright.config.ts`: `export default defineConfig({ include: [...] })`. */
export const defineConfig = (config: PipewrightConfig): PipewrightConfig => config;

export const CONFIG_FILES = [
  'pipewright.config.ts',
  'pipewright.config.mts',
  'pipewright.config.js',
  'pipewright.config.mjs',
];
export const DEFAULT_OUT_DIR = 'out';
/** Seconds a definition file may take to evaluate when neither the flag nor the config says (definition-limit.ts). */
export const DEFAULT_DEFINITION_TIMEOUT_S = 60;
