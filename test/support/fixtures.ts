import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';
import { type AnyResource } from 'pipewright';
import { toYaml } from '../../src/yaml/emit-yaml.js';
import { validateDocument } from '../../src/check/check-document.js';
import { ROOT } from './cli.js';

/** The data of a corpus fixture (its first document), as YAML 1.1 reads it. */
export const fixture = async (name: string): Promise<unknown> =>
  YAML.parse(await readFile(join(ROOT, 'test', 'fixtures', 'valid', `${name}.yaml`), 'utf8'), { version: '1.1' });

/** builder -> document -> YAML text -> data, failing on any validation diagnostic on the way. */
export function roundTrip(resource: AnyResource): unknown {
  const document = resource.toDocument();
  const diagnostics = validateDocument('pipeline', document).map((d) => `${d.subject}: ${d.message}`);
  if (diagnostics.length) throw new Error(`built document is invalid:\n${diagnostics.join('\n')}`);
  return YAML.parse(toYaml(document), { version: '1.1' });
}

/**
 * The YAML lines of an inline Bash ShellScript step (timeout 10m) as an item of a stage's `steps:` list (the item
 * at 14 spaces, as the tests' pipelines nest it), named as its identifier.
 */
export const shellStepLines = (identifier: string, script: string): string[] =>
  [
    '- step:',
    `    identifier: ${identifier}`,
    `    name: ${identifier}`,
    '    type: ShellScript',
    '    timeout: 10m',
    '    spec:',
    '      shell: Bash',
    '      onDelegate: true',
    '      source:',
    '        type: Inline',
    '        spec:',
    `          script: ${script}`,
  ].map((line) => `              ${line}`);

/** A pipeline document (o/p) holding one Custom stage `s` whose execution is the one step given (`{ step: ... }` body). */
export const oneStepPipeline = (step: Record<string, unknown>): Record<string, unknown> => ({
  pipeline: {
    name: 'p',
    identifier: 'p',
    orgIdentifier: 'o',
    projectIdentifier: 'p',
    stages: [{ stage: { name: 's', identifier: 's', type: 'Custom', spec: { execution: { steps: [{ step }] } } } }],
  },
});
