import type { Command } from 'commander';
import type { SchemaFlags } from './schema-run.js';

const DEFAULT_SCHEMA_DIR = 'schemas';

export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('write pipeline, connector and project JSON Schemas for editors (yaml-language-server)')
    .option('-o, --out <dir>', 'folder to write the .schema.json files to', DEFAULT_SCHEMA_DIR)
    .option('--json', 'print the files written as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ pipewright schema                 # writes schemas/pipeline.schema.json and friends',
        '  $ pipewright schema -o .vscode/schemas',
      ].join('\n'),
    )
    .action(async (flags: SchemaFlags) => {
      const { runSchema } = await import('./schema-run.js');
      process.exitCode = await runSchema(flags);
    });
}
