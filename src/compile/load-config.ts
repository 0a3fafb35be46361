import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_FILES, configSchema, DEFAULT_OUT_DIR, type PipewrightConfig } from './config.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { CONFIGURABLE_CODES } from '../check/rule-settings.js';
import { loadModules } from './load-modules.js';
import { schemaDiagnostics } from '../check/schema-issues.js';

export interface LoadedConfig {
  readonly config: PipewrightConfig;
  /** The config file, when one was found. */
  readonly file?: string;
  /** The folder the config's paths are relative to: the config's own, else where the search started. */
  readonly dir: string;
}

/** The name of the config file in `dir`, if it holds one. */
export const configIn = (dir: string): string | undefined => CONFIG_FILES.find((name) => existsSync(join(dir, name)));

/**
 * The nearest folder holding a pipewright config, from `start` up, as tsc finds tsconfig.json and prettier its
 * configuration: so a command run in `pipelines/` uses the project's config. The search stops at the root of a
 * repository (a folder holding `.git`, which is searched) and never leaves it, so a stray config above a checkout
 * (in a home folder) is never picked up.
 */
export function findConfigDir(start: string = process.cwd()): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (configIn(dir)) return dir;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined;
  }
}

/**
 * Reads `pipewright.config.ts` (or .mts/.js/.mjs): from `dir` when given, else the nearest one from the working
 * directory up (findConfigDir); an empty config when there is none.
 */
export async function loadConfig(dir?: string): Promise<LoadedConfig> {
  const found = dir ?? findConfigDir() ?? process.cwd();
  const file = configIn(found);
  if (!file) return { config: {}, dir: found };
  const [loaded] = await loadModules([join(found, file)]);
  const value = loaded!.exports.default;
  const result = configSchema.safeParse(value);
  if (!result.success)
    throw new DiagnosticError(
      schemaDiagnostics(value, result.error.issues).map((d) => ({
        ...d,
        location: { file: loaded!.file },
        subject: 'config',
        hint:
          d.path[0] === 'rules'
            ? `rules takes 'off', 'warning' or 'error' for every code about a document (${CONFIGURABLE_CODES.slice(0, 3).join(', ')}, ... docs/troubleshooting.md#configuring-rules); codes about the run (a missing file, the command line) are not configurable`
            : 'export default defineConfig({ include: [...], outDir: "out" })',
      })),
    );
  return { config: result.data, file: loaded!.file, dir: found };
}

/** The compiled output folder a config names (else `out`), beside the config, as a path from the working directory. */
export const configOutDir = ({ config, dir }: LoadedConfig): string =>
  relative(process.cwd(), resolve(dir, config.outDir ?? DEFAULT_OUT_DIR)) || '.';
