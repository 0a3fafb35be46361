import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILES, configSchema, type PipewrightConfig } from './config.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { CONFIGURABLE_CODES } from '../check/rule-settings.js';
import { loadModules } from './load-modules.js';
import { schemaDiagnostics } from '../check/schema-issues.js';

export interface LoadedConfig {
  readonly config: PipewrightConfig;
  /** The config file, when one was found. */
  readonly file?: string;
}

/** Reads `pipewright.config.ts` (or .mts/.js/.mjs) from `dir`; an empty config when there is none. */
export async function loadConfig(dir = process.cwd()): Promise<LoadedConfig> {
  const file = CONFIG_FILES.find((name) => existsSync(join(dir, name)));
  if (!file) return { config: {} };
  const [loaded] = await loadModules([join(dir, file)]);
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
  return { config: result.data, file: loaded!.file };
}
