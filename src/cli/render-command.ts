import { Option, type Command } from 'commander';
import { DEFAULT_OUT_DIR } from '../compile/config.js';
import type { RenderFlags } from './render-run.js';

/** A repeatable option: every value given, in order. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerRender(program: Command): void {
  program
    .command('render')
    .description(
      'show the pipeline that will run: input sets and --set values merged in as the platform merges them, runtime inputs checked',
    )
    .argument(
      '<pipeline>',
      'a pipeline of the compiled output (identifier, project/identifier or org/project/identifier), or a pipeline YAML file',
    )
    .option(
      '-i, --input-set <set>',
      'an input set or overlay input set (identifier in the compiled output, or a YAML file); repeat it for several: later ones win, an overlay counts as its input sets in order',
      collect,
    )
    .option(
      '--set <name=value>',
      'a value for one runtime input, applied after the input sets, e.g. pipeline.variables.env=prod ([a, b] is a list); repeat it for several',
      collect,
    )
    .addOption(
      new Option('--format <format>', 'yaml: the merged pipeline; mermaid: its stages and steps as a flowchart')
        .choices(['yaml', 'mermaid'])
        .default('yaml'),
    )
    .option(
      '-o, --out <dir>',
      `the compiled output folder to read (default: outDir from config, else "${DEFAULT_OUT_DIR}")`,
    )
    .option('--json', 'print the result, its runtime inputs and the diagnostics as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'Exits 1 when a runtime input gets no value and has no default, or a value outside its allowedValues or regex.',
        '',
        'Examples:',
        '  $ pipewright render deploy --input-set prod                # from the compiled output (out/)',
        '  $ pipewright render web/deploy -i base -i prod --set pipeline.variables.tag=v1.2.3',
        '  $ pipewright render .harness/deploy.yaml --input-set .harness/prod-inputs.yaml',
        '  $ pipewright render deploy --format mermaid > deploy.mmd',
      ].join('\n'),
    )
    .action(async (pipeline: string, flags: RenderFlags) => {
      const { runRender } = await import('./render-run.js');
      process.exitCode = await runRender(pipeline, flags);
    });
}
