import type { Command } from 'commander';
import type { ValidateFlags } from './validate-run.js';

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check hand-written pipeline, connector and project YAML with the rules compile uses')
    .argument('<files...>', 'YAML files (a file may hold several documents separated by ---)')
    .option('--json', 'print the diagnostics as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ pipewright validate pipelines/*.yaml',
        '  $ pipewright validate deploy.yaml --json | jq .diagnostics',
      ].join('\n'),
    )
    .action(async (files: string[], flags: ValidateFlags) => {
      const { runValidate } = await import('./validate-run.js');
      process.exitCode = await runValidate(files, flags);
    });
}
