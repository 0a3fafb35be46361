import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_OUT_DIR } from '../compile/config.js';
import type { PublishFlags } from './publish-run.js';

/** A positive whole number, or a usage error naming the option. */
export const positiveInt =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive whole number.`);
    return n;
  };

export function registerPublish(program: Command): void {
  program
    .command('publish')
    .description('publish a compiled folder to the platform, each kind in dependency order (create or update)')
    .argument('[dir]', `compiled output folder (default: outDir from config, else "${DEFAULT_OUT_DIR}")`)
    .option(
      '--base-url <url>',
      'platform address, e.g. https://app.harness.io (default: HARNESS_BASE_URL, then config baseUrl)',
    )
    .option('--account <id>', 'account identifier (default: HARNESS_ACCOUNT_ID, then config accountId)')
    .option('--api-key-file <file>', 'read the API key from this file instead of HARNESS_API_KEY')
    .option('--dry-run', 'read the platform and show what would be created, updated or left unchanged; write nothing')
    .option('--json', 'print a machine-readable report on stdout')
    .addOption(
      new Option(
        '--format <format>',
        'text: a line per document as it goes; markdown: the report only, at the end, for a CI job summary or a merge request comment',
      )
        .choices(['text', 'markdown'])
        .default('text')
        .conflicts('json'),
    )
    .option('--rate <n>', 'requests per minute to allow (default: config rateLimit, else 1000)', positiveInt('--rate'))
    .option('--concurrency <n>', 'documents of one kind published at once (default 4)', positiveInt('--concurrency'))
    .option(
      '--store <where>',
      'where pipelines and their input sets are kept: inline (in the platform, default) or remote (in Git; default: config store)',
    )
    .option(
      '--git-connector <ref>',
      'with --store remote: the Git connector the platform uses (default: config git.connector)',
    )
    .option('--repo <name>', 'with --store remote: the repository (default: config git.repo)')
    .option(
      '--branch <branch>',
      'with --store remote: the branch pipelines and input sets are read from and committed to (default: config git.branch)',
    )
    .option(
      '--fail-on-drift',
      'fail, and leave alone, documents changed on the platform since the last publish (by someone else)',
    )
    .option(
      '--policy-check',
      'have the platform evaluate its policy sets on each pipeline, template and connector before writing it (with --dry-run: write nothing)',
    )
    .option(
      '--prune',
      'delete what an earlier publish recorded whose source is gone (only as pipewright published it; children first)',
    )
    .addHelpText(
      'after',
      [
        '',
        'The API key comes from HARNESS_API_KEY (or --api-key-file) and is never printed.',
        '',
        'Examples:',
        '  $ HARNESS_API_KEY=... pipewright publish out --base-url https://app.harness.io --account abc123',
        '  $ pipewright publish --dry-run                  # show the semantic diff, write nothing',
        '  $ pipewright publish --json > publish-report.json',
        '  $ pipewright publish --store remote --git-connector github --repo delivery --branch main',
        '  $ pipewright publish --dry-run --fail-on-drift    # in CI: exit 1 if someone changed a document in the UI',
        '  $ pipewright publish --prune --dry-run            # what --prune would delete, and what it would keep',
        "  $ pipewright publish --dry-run --policy-check     # which documents the platform's policies would deny",
        '  $ pipewright publish --dry-run --format markdown >> "$GITHUB_STEP_SUMMARY"   # the plan on a pull request',
      ].join('\n'),
    )
    .action(async (dir: string | undefined, flags: PublishFlags, command: Command) => {
      const { runPublish } = await import('./publish-run.js');
      process.exitCode = await runPublish(dir, { ...flags, debug: Boolean(command.optsWithGlobals().debug) });
    });
}
