import type { Command } from 'commander';
import { DEFAULT_OUT_DIR } from '../config.js';
import type { CompileFlags } from './compile-run.js';

export function registerCompile(program: Command): void {
  program
    .command('compile')
    .description('compile TypeScript definitions to platform YAML, plus manifest.json')
    .argument('[entries...]', '.ts files or globs (default: include from pipewright.config.ts)')
    .option('-o, --out <dir>', `output folder (default: outDir from config, else "${DEFAULT_OUT_DIR}")`)
    .option('--check', 'write nothing; exit 1 if the output folder is not up to date')
    .option('--schema-modeline', 'start each file with a yaml-language-server $schema line')
    .option('--json', 'print the result (or the diagnostics) as JSON')
    .addHelpText('after', '\nExamples:\n  $ pipewright compile examples/seed/*.ts -o out\n  $ pipewright compile --check')
    .action(async (entries: string[], flags: CompileFlags) => {
      const { runCompile } = await import('./compile-run.js');
      process.exitCode = await runCompile(entries, flags);
    });
}
