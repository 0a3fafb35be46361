import type { Command } from 'commander';
import type { InitFlags } from './init-run.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('scaffold a ready project: package.json, tsconfig, pipewright.config.ts, pipelines/, CI workflow')
    .argument('[dir]', 'folder to create the project in (created when missing)', '.')
    .option('--name <name>', 'package name (default: the folder name)')
    .option('--force', 'overwrite files that already exist')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ npx pipewright init demo && cd demo && npm install && npx pipewright compile',
        '  $ pipewright init . --force        # re-create the template files here',
      ].join('\n'),
    )
    .action(async (dir: string, flags: InitFlags) => {
      const { runInit } = await import('./init-run.js');
      process.exitCode = await runInit(dir, flags);
    });
}
