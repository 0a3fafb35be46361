import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

/** dependency-cruiser over `src` of `cwd` with the project's rules: the violations it finds. */
async function violations(cwd: string): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'],
    {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const temporary: string[] = [];
afterAll(async () => {
  for (const dir of temporary) await rm(dir, { recursive: true, force: true });
});

describe('the layers of src/ (.dependency-cruiser.cjs)', () => {
  it('hold: no import goes up a layer or across siblings, and no two files import each other in a circle', async () => {
    const found = await violations(ROOT);
    expect(found.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('refuse an upward import, a circle, an import between siblings and a file outside every layer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pipewright-layers-'));
    temporary.push(dir);
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
      }),
      'src/core/diagnostics.ts': "import { b } from '../dsl/b.js';\nexport const a = b;\n",
      'src/dsl/b.ts': "import { c } from './c.js';\nexport const b = c;\n",
      'src/dsl/c.ts': "import type { b } from './b.js';\nexport const c = 1 as unknown as typeof b;\n",
      'src/publish/p.ts': "import { run } from '../import/run.js';\nexport const p = run;\n",
      'src/import/run.ts': 'export const run = 1;\n',
      'src/misc/x.ts': "import { run } from '../import/run.js';\nexport const x = run;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(join(dir, file, '..'), { recursive: true });
      await writeFile(join(dir, file), text);
    }
    const found = (await violations(dir)).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    expect(found).toEqual([
      'layer-core: src/core/diagnostics.ts -> src/dsl/b.ts',
      'layer-publish: src/publish/p.ts -> src/import/run.ts',
      'no-circular: src/dsl/b.ts -> src/dsl/c.ts',
      'no-other-folders: src/misc/x.ts -> src/import/run.ts',
    ]);
  });
});
