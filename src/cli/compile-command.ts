import { relative, resolve, sep } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_DEFINITION_TIMEOUT_S, DEFAULT_OUT_DIR } from '../compile/config.js';
import type { CompileFlags } from './compile-run.js';
import { stderr } from './output.js';

/** A number of seconds, 0 or more: anything else is a usage error (exit 2). */
function seconds(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0)
    throw new InvalidArgumentError(`expected a number of seconds (0 or more), got ${JSON.stringify(value)}`);
  return parsed;
}

export function registerCompile(program: Command): void {
  program
    .command('compile')
    .description('compile TypeScript definitions to platform YAML, plus manifest.json')
    .argument(
      '[entries...]',
      ".ts files or globs (default: include from pipewright.config.ts); files that are not the whole include are a part: other files' outputs stay",
    )
    .option('-o, --out <dir>', `output folder (default: outDir from config, else "${DEFAULT_OUT_DIR}")`)
    .option('--check', 'write nothing; exit 1 and list what differs if the output folder is not up to date')
    .option('--typecheck', 'type-check the definitions with TypeScript first; type errors stop the compile')
    .option('-w, --watch', 'compile, then again whenever a definition file or one of its imports changes')
    .option(
      '--schema-modeline [base]',
      'start each file with a yaml-language-server $schema line: a path to schemas/ (or the folder or http(s) URL given) holding <kind>.schema.json',
    )
    .option(
      '--keep-going',
      'write every valid document; skip the files with errors and what depends on their documents, list both, exit 1',
    )
    .option(
      '--definition-timeout <seconds>',
      `stop a definition file that runs longer than this while it is evaluated (default: definitionTimeout from config, else ${DEFAULT_DEFINITION_TIMEOUT_S}; 0: no limit)`,
      seconds,
    )
    .option('--json', 'print the result (or the diagnostics) as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ pipewright compile                              # entries from pipewright.config.ts',
        '  $ cd pipelines && pipewright compile              # the same: the nearest config, from its folder',
        '  $ pipewright compile "pipelines/**/*.ts" -o out',
        '  $ pipewright compile pipelines/terraform.ts        # this file only; the outputs of the others stay',
        '  $ pipewright compile --check --typecheck          # in CI: fail when out/ is stale',
        '  $ pipewright compile --watch',
        '  $ pipewright compile --keep-going               # publish what is valid while the rest is fixed',
      ].join('\n'),
    )
    .action(async (entries: string[], flags: CompileFlags, command: Command) => {
      // These combinations have no sensible meaning; say so instead of picking one silently.
      if (flags.keepGoing && (flags.check || flags.watch))
        command.error(`error: --keep-going cannot be combined with ${flags.check ? '--check' : '--watch'}`, {
          exitCode: 2,
          code: 'pipewright.usage',
        });
      if (flags.watch && (flags.check || flags.json))
        command.error(`error: --watch cannot be combined with ${flags.check ? '--check' : '--json'}`, {
          exitCode: 2,
          code: 'pipewright.usage',
        });
      ({ entries, flags } = await atProjectRoot(entries, flags));
      if (flags.watch) {
        const { watchCompile } = await import('./watch.js');
        process.exitCode = await watchCompile(entries, flags);
      } else {
        const { runCompile } = await import('./compile-run.js');
        process.exitCode = await runCompile(entries, flags);
      }
    });
}

/**
 * Run in a subfolder of a project (`pipelines/`), compile works from the folder of the nearest pipewright config,
 * as if run there: its include globs, outDir and the manifest's source paths mean the same from anywhere, so the
 * output is byte-identical. Entries and -o given on the command line stay relative to where they were typed.
 */
async function atProjectRoot(
  entries: string[],
  flags: CompileFlags,
): Promise<{ entries: string[]; flags: CompileFlags }> {
  const { configIn, findConfigDir } = await import('../compile/load-config.js');
  const root = findConfigDir();
  if (root === undefined || root === process.cwd()) return { entries, flags };
  const fromRoot = (path: string) => relative(root, resolve(path)).split(sep).join('/') || '.';
  const moved = {
    entries: entries.map(fromRoot),
    flags: flags.out === undefined ? flags : { ...flags, out: fromRoot(flags.out) },
  };
  const shown = relative(process.cwd(), root).split(sep).join('/');
  stderr(`compiling from ${shown}, the folder of ${configIn(root)}\n`);
  process.chdir(root);
  return moved;
}
