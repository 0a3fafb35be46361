import { Command, CommanderError } from 'commander';
import { registerCompile } from './compile-command.js';
import { registerImport } from './import-command.js';
import { registerGraphql } from './graphql-command.js';
import { registerInit } from './init-command.js';
import { registerLsp } from './lsp-command.js';
import { registerPublish } from './publish-command.js';
import { registerPull } from './pull-command.js';
import { registerRender } from './render-command.js';
import { registerRun } from './run-command.js';
import { registerSchema } from './schema-command.js';
import { registerValidate } from './validate-command.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { EXIT, exitCodeOf, fileSystemProblem, reportError, useColor } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { version } from '../core/own-package.js';
import { stderr, stdout } from './output.js';

/** The commander program; each command loads its implementation only when it runs. */
export function createProgram(): Command {
  const program = new Command('pipewright')
    .description('Delivery-platform pipelines, connectors and projects as typed TypeScript.')
    .version(version(), '-v, --version')
    .option('--debug', 'show stack traces of unexpected errors')
    .showSuggestionAfterError(true)
    // Help, usage errors and suggestions pass the one output edge too (the key is masked wherever it shows).
    .configureOutput({ writeOut: stdout, writeErr: stderr })
    .addHelpText(
      'after',
      '\nExamples:\n  $ npx pipewright init demo\n  $ pipewright compile --check --typecheck\n  $ pipewright import .harness/deploy.yaml -o pipelines',
    )
    .exitOverride();
  registerCompile(program);
  registerInit(program);
  registerImport(program);
  registerValidate(program);
  registerSchema(program);
  registerPublish(program);
  registerPull(program);
  registerRender(program);
  registerRun(program);
  registerGraphql(program);
  registerLsp(program);
  return program;
}

/** Runs the CLI and returns its exit code: 0 ok, 1 invalid input or failed work, 2 usage error. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  if (argv.length === 0) {
    // No command is a usage error: show what there is to run, on stderr.
    stderr(program.helpInformation());
    return EXIT.usage;
  }
  // With --json, a command that fails before its work still answers in its envelope on stdout.
  const command = argv.find((arg) => !arg.startsWith('-'));
  const json = argv.includes('--json') && program.commands.some((c) => c.name() === command) ? command : undefined;
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      )
        return EXIT.ok;
      // commander has printed the message on stderr already.
      if (json)
        printEnvelope(json, false, DiagnosticError.of('usage', error.message.replace(/^error: /, '')).diagnostics);
      return EXIT.usage;
    }
    const debug = argv.includes('--debug');
    const problem = fileSystemProblem(error) ?? error;
    if (json && problem instanceof DiagnosticError) {
      printEnvelope(json, false, problem.diagnostics);
      if (debug) stderr(`${problem.cause instanceof Error ? problem.cause.stack : problem.stack}\n`);
      return exitCodeOf(problem);
    }
    const code = reportError(error, { debug, color: useColor(process.stderr) });
    if (json)
      printEnvelope(
        json,
        false,
        DiagnosticError.of(
          'unexpected-error',
          `unexpected error: ${error instanceof Error ? error.message : String(error)}`,
          'run again with --debug and report the stack trace',
        ).diagnostics,
      );
    return code;
  }
}
