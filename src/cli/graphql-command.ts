import type { Command } from 'commander';
import type { GraphqlFlags } from './graphql-run.js';

export function registerGraphql(program: Command): void {
  program
    .command('graphql')
    .description('run a GraphQL query against the platform and print the JSON result')
    .argument('<query>', 'GraphQL query text, or - to read it from stdin')
    .option('--base-url <url>', 'platform address (default: HARNESS_BASE_URL, then config baseUrl)')
    .option('--account <id>', 'account identifier (default: HARNESS_ACCOUNT_ID, then config accountId)')
    .option('--api-key-file <file>', 'read the API key from this file instead of HARNESS_API_KEY')
    .option('--json', 'print the result inside the JSON envelope every command prints with --json')
    .addHelpText(
      'after',
      [
        '',
        'Exits 1 when the result has errors. The API key comes from HARNESS_API_KEY (or --api-key-file).',
        '',
        'Examples:',
        "  $ pipewright graphql '{ applications(limit: 5) { nodes { name } } }'",
        '  $ pipewright graphql - < query.graphql --base-url https://app.harness.io --account abc123',
      ].join('\n'),
    )
    .action(async (query: string, flags: GraphqlFlags, command: Command) => {
      const { runGraphql } = await import('./graphql-run.js');
      process.exitCode = await runGraphql(query, { ...flags, debug: Boolean(command.optsWithGlobals().debug) });
    });
}
