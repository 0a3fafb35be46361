import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, readTree, runCli, tempDir, writeIn } from './support/cli.js';
import { runScript } from './support/workflow.js';

// The README's first screen, read from a user's seat: the example compiles to exactly the YAML shown, and the
// quick-start commands do what the README says they do.

let readme: string;
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  ({ dir, cleanup } = await tempDir('pipewright-readme-'));
});
afterAll(async () => cleanup?.());

/** The first screen: everything before the second-level heading after "Quick start". */
const firstScreen = () => {
  const quickStart = readme.indexOf('## Quick start');
  return readme.slice(0, readme.indexOf('\n## ', quickStart + 1));
};

const block = (text: string, lang: string) => {
  const found = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text);
  if (!found) throw new Error(`no ${lang} block`);
  return found[1]!;
};

describe("the README's first screen", () => {
  it('fits a screen: what it is, an example and its YAML, the quick start, links to the rest', () => {
    const screen = firstScreen();
    expect(screen.split('\n').length).toBeLessThanOrEqual(80);
    expect(screen).toMatch(/^# pipewright\n\n.*TypeScript/);
    expect(block(screen, 'ts').trim().split('\n').length).toBeLessThanOrEqual(10);
    for (const link of ['docs/cli.md', 'docs/publishing.md', 'docs/troubleshooting.md', '#start-a-project-of-your-own'])
      expect(screen).toContain(`](${link})`);
  });

  it('shows exactly the YAML its example compiles to', async () => {
    const named = /`(pipelines\/[\w-]+\.ts)`:\n\n```ts\n/.exec(firstScreen());
    expect(named).not.toBeNull();
    const source = named![1]!;
    await writeIn(dir, source, block(firstScreen(), 'ts'));
    const command =
      /`npx (pipewright compile [^`]+)` writes `out\/projects\/default\/(\w+)\.yaml` and\n`(out\/pipelines\/[^`]+)`:/.exec(
        firstScreen(),
      );
    expect(command).not.toBeNull();
    const result = await runCli(
      command![1]!
        .split(' ')
        .slice(1)
        .map((arg) => (arg === 'pipelines/*.ts' ? source : arg)),
      { cwd: dir },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(await readFile(join(dir, command![3]!), 'utf8')).toBe(block(firstScreen(), 'yaml'));
    expect(await readFile(join(dir, `out/projects/default/${command![2]}.yaml`), 'utf8')).toContain(
      `identifier: ${command![2]}`,
    );
  });

  it('gives the two quick-start commands, and the first compiles the example to the golden output', async () => {
    const commands = block(firstScreen().slice(firstScreen().indexOf('## Quick start')), 'sh')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm ci && npx pipewright compile examples/seed/*.ts -o out', 'npm test']);
    // `npm ci` already ran (again, it would replace node_modules under the running tests) and `npm test` is what
    // runs this file: the rest of the first command runs as written, in the clone, as npx finds pipewright there.
    const [, compile] = commands[0]!.split(' && ');
    const result = await runScript(compile!, ROOT, { ...process.env, NO_COLOR: '1', npm_config_offline: 'true' });
    expect(result.code, result.stderr).toBe(0);
    // A clone where the command already ran reuses out/: the files, not the counts, are the promise.
    expect(result.stdout).toMatch(/^compiled 3 documents to out: \d written, \d unchanged, 0 removed\n$/);
    expect(await readTree(join(ROOT, 'out'))).toEqual(await readTree(join(ROOT, 'examples/seed/expected')));
    expect(JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).scripts.test).toMatch(/vitest run/);
  });
});
