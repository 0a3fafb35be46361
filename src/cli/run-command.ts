import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_OUT_DIR } from '../compile/config.js';
import { positiveInt } from './publish-command.js';
import type { RunFlags } from './run-run.js';

/** A repeatable option: every value given, in order. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `1h30m`, `1h 30m` (the platform's timeout words; a bare number is seconds) in milliseconds. */
function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return checked(Number(trimmed) * 1000);
  if (!/^(?:\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)\s*)+$/.test(trimmed))
    throw new InvalidArgumentError('give a duration such as 90s, 30m or 1h30m.');
  let ms = 0;
  // Sticky: each part starts where the last ended (the text was checked whole above), so no start is tried twice.
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*/gy))
    ms += Number(amount) * UNIT_MS[unit!]!;
  return checked(Math.round(ms));
}

const checked = (ms: number): number => {
  if (ms <= 0) throw new InvalidArgumentError('give a duration longer than nothing, such as 90s.');
  return ms;
};

export function registerRun(program: Command): void {
  program
    .command('run')
    .description(
      'run a pipeline on the platform: runtime inputs checked first, then the execution followed to its end (exit 0 only on success)',
    )
    .argument(
      '<pipeline>',
      'the pipeline: identifier, project/identifier or org/project/identifier (found in the compiled output, else on the platform), or a pipeline YAML file',
    )
    .option('--org <org>', 'the organization of the pipeline (default: from the argument or the compiled output)')
    .option('--project <project>', 'the project of the pipeline (default: from the argument or the compiled output)')
    .option(
      '-i, --input-set <id>',
      'an input set of the pipeline on the platform; repeat it for several: merged in order, later ones win',
      collect,
    )
    .option('--inputs <file>', 'runtime-input YAML (pipeline: ...) or an input set file, merged after the input sets')
    .option(
      '--set <name=value>',
      'a value for one runtime input, merged last, e.g. pipeline.variables.env=prod (typed as the input declares it; [a, b] is a list); repeat it for several',
      collect,
    )
    .option('--branch <branch>', 'the Git branch to run a pipeline stored in Git from')
    .option(
      '--timeout <duration>',
      'stop waiting after this long (90s, 30m, 1h30m) and abort the execution (unless --detach)',
      parseDuration,
    )
    .option('--no-wait', 'return once the execution has started, with its id and URL')
    .option(
      '--detach',
      'when the wait ends early (Ctrl-C, SIGTERM, --timeout), leave the execution running instead of aborting it',
    )
    .option('--base-url <url>', 'platform address (default: HARNESS_BASE_URL, then config baseUrl)')
    .option('--account <id>', 'account identifier (default: HARNESS_ACCOUNT_ID, then config accountId)')
    .option('--api-key-file <file>', 'read the API key from this file instead of HARNESS_API_KEY')
    .option('--rate <n>', 'requests per minute to allow (default: config rateLimit, else 1000)', positiveInt('--rate'))
    .option(
      '-o, --out <dir>',
      `the compiled output folder to find the pipeline in (default: outDir from config, else "${DEFAULT_OUT_DIR}")`,
    )
    .option('--json', 'print the result (status, ids, URL, stages and steps with their times) as JSON on stdout')
    .addOption(
      new Option(
        '--format <format>',
        'text: a line per change (a live view on a terminal); markdown: the report only, at the end, for a CI job summary',
      )
        .choices(['text', 'markdown'])
        .default('text')
        .conflicts('json'),
    )
    .addHelpText(
      'after',
      [
        '',
        'Exits 0 when the execution succeeds; 1 when it fails, is aborted, expires, is rejected or times out (naming the',
        'stage and step), or when an input is missing or refused (nothing is started then); 2 for usage errors.',
        '',
        'Examples:',
        '  $ pipewright run deploy --input-set prod                      # the pipeline of the compiled output',
        '  $ pipewright run default/shop/deploy --set pipeline.variables.tag=v1.2.3 --timeout 30m',
        '  $ pipewright run smoke --no-wait --json',
        '  $ pipewright run deploy --inputs ci/inputs.yaml --format markdown >> "$GITHUB_STEP_SUMMARY"',
      ].join('\n'),
    )
    .action(async (pipeline: string, flags: RunFlags, command: Command) => {
      const { runRun } = await import('./run-run.js');
      process.exitCode = await runRun(pipeline, { ...flags, debug: Boolean(command.optsWithGlobals().debug) });
    });
}
