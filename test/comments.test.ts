import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

/**
 * Comments that drift: a doc comment left above a declaration it does not describe (two `/** ... *\/` blocks in a
 * row: the first has lost its declaration), and a comment naming a file that moved or is gone.
 */
function files(dir: string, ends: readonly string[], found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, ends, found);
    else if (ends.some((end) => path.endsWith(end))) found.push(path);
  }
  return found;
}

/** Lines where a doc block ends and another starts right below it (an orphaned doc over someone else's). */
function stackedDocs(text: string): number[] {
  const lines = text.split('\n');
  return lines.flatMap((line, index) =>
    /^\s*(\/\*\*.*)?\*\/\s*$/.test(line) && /^\s*\/\*\*/.test(lines[index + 1] ?? '') ? [index + 1] : [],
  );
}

/**
 * Files a comment names that do not exist: a path from the repository's root (`src/...`, `test/...`) or a
 * kebab-case module name (`call-site.ts`), which must be some file's name in src/, test/ or scripts/.
 */
function missingFiles(text: string, exists: (path: string) => boolean, known: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  for (const comment of text.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [])
    for (const [, path] of comment.matchAll(
      /(?<![\w./-])((?:src|test|scripts|bench)\/[\w./-]*\w\.(?:ts|mts|mjs|js)|[a-z]+(?:-[a-z0-9]+)+\.ts)\b/g,
    )) {
      const found = path!.includes('/') ? exists(path!) || exists(path!.replace(/\.js$/, '.ts')) : known.has(path!);
      if (!found) missing.push(path!);
    }
  return missing;
}

const sources = [...files(join(ROOT, 'src'), ['.ts']), ...files(join(ROOT, 'scripts'), ['.mjs', '.ts'])].filter(
  (file) => !file.includes(`${join('src', 'dsl', 'catalog', 'generated')}`),
);
const known = new Set(
  ['src', 'test', 'scripts', 'bench'].flatMap((dir) => files(join(ROOT, dir), ['.ts'])).map((file) => basename(file)),
);

describe('comments', () => {
  it('no doc comment sits orphaned above another (each describes the declaration below it)', () => {
    const found = sources.flatMap((file) =>
      stackedDocs(readFileSync(file, 'utf8')).map((line) => `${relative(ROOT, file)}:${line}`),
    );
    expect(found).toEqual([]);
  });

  it('every file a comment names exists', () => {
    const found = sources.flatMap((file) =>
      missingFiles(readFileSync(file, 'utf8'), (path) => existsSync(join(ROOT, path)), known).map(
        (path) => `${relative(ROOT, file)}: ${path}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('finds a stacked doc and a moved file (the checks are real)', () => {
    expect(stackedDocs('/** Was above a function that moved. */\n/** The constant. */\nconst a = 1;\n')).toEqual([1]);
    expect(stackedDocs('/** File comment. */\n\n/** The constant. */\nconst a = 1;\n')).toEqual([]);
    const exists = (path: string) => path === 'src/core/walk.ts';
    expect(
      missingFiles(
        '// see src/ir/walk.ts and src/core/walk.js\n/** mapped by call-site.ts, a.ts */',
        exists,
        new Set(),
      ),
    ).toEqual(['src/ir/walk.ts', 'call-site.ts']);
  });
});
