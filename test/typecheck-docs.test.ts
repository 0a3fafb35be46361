import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../src/core/diagnostics.js';
import { typecheck } from '../src/compile/typecheck.js';
import { ROOT, tempDir } from './support/cli.js';

interface Block {
  readonly doc: string;
  readonly line: number;
  readonly code: string;
}

/** Fenced TypeScript blocks (```ts or ```typescript) of a markdown file; `no-check` in the info string opts out. */
function typescriptBlocks(doc: string, text: string): Block[] {
  const blocks: Block[] = [];
  const fence = /^```(ts|typescript)\b([^\n]*)\n([\s\S]*?)^```$/gm;
  for (const match of text.matchAll(fence)) {
    if (match[2]!.includes('no-check')) continue;
    blocks.push({ doc, line: text.slice(0, match.index).split('\n').length, code: match[3]! });
  }
  return blocks;
}

async function documentationBlocks(): Promise<Block[]> {
  const docs = [
    'README.md',
    'ARCHITECTURE.md',
    ...(await readdir(join(ROOT, 'docs')).catch(() => [])).map((f) => `docs/${f}`),
  ];
  const blocks: Block[] = [];
  for (const doc of docs.filter((d) => d.endsWith('.md') && existsSync(join(ROOT, d))))
    blocks.push(...typescriptBlocks(doc, await readFile(join(ROOT, doc), 'utf8')));
  return blocks;
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-docs-'));
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  // Type the blocks against the built declarations (npm test builds first): what a user's project sees.
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        // The sources use Node's types; a user's project gets them through pipewright's .d.ts files.
        typeRoots: [join(ROOT, 'node_modules/@types')],
        types: ['node'],
        paths: {
          pipewright: [join(ROOT, 'dist/index.d.ts')],
          'pipewright/testing': [join(ROOT, 'dist/testing/index.d.ts')],
          // docs/testing.md's example is a vitest test, as a user's would be.
          vitest: [join(ROOT, 'node_modules/vitest/dist/index.d.ts')],
        },
      },
    }),
  );
});
afterAll(async () => cleanup());

describe('TypeScript in the documentation', () => {
  it('finds the blocks (README has TypeScript examples)', async () => {
    expect((await documentationBlocks()).filter((b) => b.doc === 'README.md').length).toBeGreaterThan(0);
  });

  it('type-checks every block as a module of a user project', async () => {
    const blocks = await documentationBlocks();
    const files = await Promise.all(
      blocks.map(async (block, index) => {
        const file = `block-${index}-${block.doc.replace(/[^a-zA-Z0-9]+/g, '_')}-line-${block.line}.ts`;
        // Each block is its own module (a block without imports or exports would otherwise be a global script).
        await writeFile(join(dir, file), `${block.code}\nexport {};\n`);
        return file;
      }),
    );
    const diagnostics = await typecheck({ files, cwd: dir });
    expect(diagnostics, formatDiagnostics(diagnostics)).toEqual([]);
  });

  it('fails on a block with a type error (the check is real)', async () => {
    await writeFile(
      join(dir, 'broken.ts'),
      `import { project } from 'pipewright';\nexport const p = project({ identifier: 1 });\n`,
    );
    const diagnostics = await typecheck({ files: ['broken.ts'], cwd: dir });
    // TypeScript's range: the value `1`, from its column to just after it.
    expect(diagnostics.map((d) => [d.code, d.location])).toEqual([
      ['type-error', { file: 'broken.ts', line: 2, column: 28, endLine: 2, endColumn: 38 }],
    ]);
  });
});
