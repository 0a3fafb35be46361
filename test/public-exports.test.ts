import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Node, Project } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

/**
 * The package's public surface against a reviewed list (after kysely's `test:exports`): a new export is a promise
 * to users, so it is added to `test/public-exports.txt` on purpose, and a removed one is a breaking change that
 * is taken off the list on purpose too. Each line is `<entry> <value|type> <name>`; the `schema` namespace's
 * members are listed as `schema.<name>`.
 */
const LIST = join(ROOT, 'test/public-exports.txt');
const ENTRIES = [
  { entry: 'pipewright', file: 'src/index.ts' },
  { entry: 'pipewright/testing', file: 'src/testing/index.ts' },
] as const;

/**
 * The names an entry exports, each a value when the module has it at run time (what `dist/index.js` gives a
 * user) and a type otherwise (a type-only export of a class, say); the names come from the TypeScript program.
 */
function surface(project: Project, entry: string, file: string, runtime: object, prefix = ''): string[] {
  const lines: string[] = [];
  for (const [name, declarations] of project.addSourceFileAtPath(resolve(ROOT, file)).getExportedDeclarations()) {
    const value: unknown = (runtime as Record<string, unknown>)[name];
    lines.push(`${entry} ${value === undefined ? 'type' : 'value'} ${prefix}${name}`);
    // `export * as schema`: the namespace's members are public too.
    for (const d of declarations)
      if (Node.isSourceFile(d) && typeof value === 'object' && value !== null)
        lines.push(...surface(project, entry, d.getFilePath(), value, `${prefix}${name}.`));
  }
  return lines;
}

async function exported(): Promise<string[]> {
  const project = new Project({ tsConfigFilePath: join(ROOT, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  const lines: string[] = [];
  for (const { entry, file } of ENTRIES) {
    const runtime = (await import(resolve(ROOT, file))) as object;
    const listed = surface(project, entry, file, runtime);
    // A run-time name the program does not see (an untyped re-export) would escape the list: fail on it.
    for (const name of Object.keys(runtime))
      if (!listed.includes(`${entry} value ${name}`)) listed.push(`${entry} value ${name} (untyped)`);
    lines.push(...listed);
  }
  return lines.sort();
}

async function reviewed(): Promise<string[]> {
  const text = await readFile(LIST, 'utf8');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .sort();
}

/** The difference as a message that says what changed and how to accept it deliberately. */
function surfaceChange(actual: readonly string[], listed: readonly string[]): string | undefined {
  const unlisted = actual.filter((line) => !listed.includes(line));
  const gone = listed.filter((line) => !actual.includes(line));
  if (!unlisted.length && !gone.length) return undefined;
  return [
    'The public exports differ from the reviewed list test/public-exports.txt.',
    ...(unlisted.length ? ['Exported but not listed:', ...unlisted.map((l) => `  + ${l}`)] : []),
    ...(gone.length
      ? ['Listed but no longer exported (a breaking change for users):', ...gone.map((l) => `  - ${l}`)]
      : []),
    "If the change is meant (would a user of the README's DSL or of pipewright/testing call it?), edit",
    'test/public-exports.txt: add the "+" lines, delete the "-" lines, and say so in CHANGELOG.md.',
    'Otherwise stop exporting the internal from src/index.ts, src/dsl/index.ts or src/testing/index.ts.',
  ].join('\n');
}

describe('public exports', () => {
  let actual: string[];
  // The TypeScript program behind the export list takes 20-40 s on a shared two-core machine.
  beforeAll(async () => {
    actual = await exported();
  }, 240_000);

  it('every export of pipewright and pipewright/testing is on the reviewed list, and every listed one exists', async () => {
    const change = surfaceChange(actual, await reviewed());
    expect(change, change).toBeUndefined();
  });

  it('names an unlisted export and a listed one that is gone (the check is real)', () => {
    const message = surfaceChange(
      ['pipewright value internalHelper', 'pipewright value project'],
      ['pipewright value project', 'pipewright type RemovedType'],
    );
    expect(message).toContain('  + pipewright value internalHelper');
    expect(message).toContain('  - pipewright type RemovedType');
    expect(message).toContain('edit\ntest/public-exports.txt');
    expect(surfaceChange(['pipewright value project'], ['pipewright value project'])).toBeUndefined();
  });

  it('keeps internals out of the public entries', () => {
    for (const internal of ['typedStep', 'catalogStep', 'catalogStage', 'captureSite', 'lower', 'misreadUnquoted'])
      expect(actual.filter((line) => line.endsWith(` ${internal}`))).toEqual([]);
  });
});
