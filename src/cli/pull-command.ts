import type { Command } from 'commander';
import { positiveInt } from './publish-command.js';
import type { PullFlags } from './pull-run.js';

export function registerPull(program: Command): void {
  program
    .command('pull')
    .description(
      'read every resource of an account, organization or project from the platform and write it as a ready project',
    )
    .option(
      '--base-url <url>',
      'platform address, e.g. https://app.harness.io (default: HARNESS_BASE_URL, then config baseUrl)',
    )
    .option('--account <id>', 'account identifier (default: HARNESS_ACCOUNT_ID, then config accountId)')
    .option('--api-key-file <file>', 'read the API key from this file instead of HARNESS_API_KEY')
    .option(
      '--org <org>',
      "only this organization (default: every organization of the account, and the account's own resources)",
    )
    .option('--project <project>', 'with --org: only this project (default: every project of the organization)')
    .option(
      '-o, --out <dir>',
      'the project folder to write (pulling again into it rewrites only what changed)',
      'platform',
    )
    .option(
      '--force',
      'replace modules edited by hand since the last pull (without it they are kept, and what differs is shown)',
    )
    .option('--json', 'print a machine-readable report on stdout')
    .option('--rate <n>', 'requests per minute to allow (default: config rateLimit, else 1000)', positiveInt('--rate'))
    .option('--concurrency <n>', 'lists and reads in flight at once (default 4)', positiveInt('--concurrency'))
    .addHelpText(
      'after',
      [
        '',
        'The API key comes from HARNESS_API_KEY (or --api-key-file) and is never printed. Right after a pull,',
        'compile and publish make no writes: pull writes the publish record (out.published.json) too.',
        '',
        'Examples:',
        '  $ HARNESS_API_KEY=... pipewright pull --base-url https://app.harness.io --account abc123 -o platform',
        '  $ pipewright pull --org default --project shop -o shop',
        '  $ cd platform && pipewright pull -o .          # again: only what changed on the platform is rewritten',
      ].join('\n'),
    )
    .action(async (flags: PullFlags, command: Command) => {
      const { runPull } = await import('./pull-run.js');
      process.exitCode = await runPull({ ...flags, debug: Boolean(command.optsWithGlobals().debug) });
    });
}
