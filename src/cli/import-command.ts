import type { Command } from 'commander';
import type { ImportFlags } from './import-run.js';

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('turn platform YAML (pipelines, connectors, projects) into TypeScript modules using the builders')
    .argument('<files...>', 'YAML files, "-" for standard input, or with --mode project one folder')
    .option('-o, --out <dir>', 'output folder', 'imported')
    .option(
      '--mode <mode>',
      'files: one module per document; project: a ready project with pipewright.config.ts',
      'files',
    )
    .option('--force', 'replace modules edited by hand since the last import (without it they are kept)')
    .option('--json', 'print the result (or the diagnostics) as JSON on stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  $ pipewright import .harness/deploy.yaml -o pipelines\n  $ pipewright import --mode project .harness -o platform',
    )
    .action(async (files: string[], flags: ImportFlags) => {
      const { runImport } = await import('./import-run.js');
      process.exitCode = await runImport(files, flags);
    });
}
