import type { Command } from 'commander';
import type { InitFlags } from './init-run.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      'scaffold a ready project, or add pipewright to an existing one: package.json, tsconfig, pipewright.config.ts, pipelines/, CI workflow',
    )
    .argument('[dir]', 'folder to create the project in (created when missing)', '.')
    .option('--name <name>', 'package and project name (default: the package.json name, else the folder name)')
    .option(
      '--force',
      "replace the template's files that already exist (an existing package.json is only ever added to)",
    )
    .option('--json', 'print what was created, added and kept as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ npx pipewright init demo && cd demo && npm install && npx pipewright compile',
        '  $ npx pipewright init              # in your repository: adds what is missing, keeps what you wrote',
        '  $ pipewright init . --force        # re-create the template files here',
      ].join('\n'),
    )
    .action(async (dir: string, flags: InitFlags) => {
      const { runInit } = await import('./init-run.js');
      process.exitCode = await runInit(dir, flags);
    });
}
