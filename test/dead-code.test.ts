import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './support/cli.js';

/**
 * Dead code stays out: knip (configured in knip.jsonc) finds files nothing loads, and exports and types nothing
 * outside their own file uses. An export kept for a reader knip cannot follow (a script reading a file's text, the
 * bench importing from dist/) says so with `@public` in its doc comment.
 */
// knip's package exports no package.json: its folder is found from its main module.
const knipMain = createRequire(import.meta.url).resolve('knip');
const knipRoot = knipMain.slice(
  0,
  knipMain.lastIndexOf(`${sep}node_modules${sep}knip${sep}`) + `${sep}node_modules${sep}knip`.length,
);
const { bin } = JSON.parse(readFileSync(join(knipRoot, 'package.json'), 'utf8')) as { bin: { knip: string } };

const knip = (cwd: string) => {
  const run = spawnSync(
    process.execPath,
    [join(knipRoot, bin.knip), '--no-progress', '--reporter', 'compact', '--no-config-hints'],
    {
      cwd,
      encoding: 'utf8',
    },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
};

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-knip-'));
});
afterAll(async () => cleanup());

describe('dead code', () => {
  it('knip finds no unused file, export or type in src/', () => {
    const { status, output } = knip(ROOT);
    expect(
      status,
      `${output}\nRemove what nothing uses, or drop \`export\` from what only its own file uses (see knip.jsonc).`,
    ).toBe(0);
  });

  it('reports an export only its own file uses and a file nothing loads (the check is real)', async () => {
    await writeFile(join(dir, 'package.json'), '{ "name": "probe", "type": "module" }\n');
    await writeFile(join(dir, 'knip.json'), '{ "entry": ["index.ts"], "project": ["*.ts"] }\n');
    await writeFile(join(dir, 'index.ts'), "import { used } from './a.js';\nexport const main = used;\n");
    await writeFile(
      join(dir, 'a.ts'),
      'export const used = 1;\nexport const onlyHere = 2;\nexport const b = onlyHere;\n',
    );
    await writeFile(join(dir, 'orphan.ts'), 'export const nobody = 3;\n');
    const { status, output } = knip(dir);
    expect(status).toBe(1);
    expect(output).toMatch(/orphan\.ts/);
    expect(output).toMatch(/a\.ts: .*onlyHere/);
  });
});
