import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { kindOfDocument, kindRow } from '../src/catalog/kinds.js';
import { keyId, keyOf, outputPathOf } from '../src/catalog/resource-key.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { ROOT, runCli, tempDir } from './support/cli.js';

/**
 * The round-trip law: for every document D of the corpus, compile(import(D)) equals D as data (key order
 * and quoting aside). Import and compile both run as the real binary.
 */
const CORPUS = await glob(
  ['test/fixtures/valid/**/*.{yaml,yml}', 'test/fixtures/import/**/*.{yaml,yml}', 'examples/*/expected/**/*.yaml'],
  {
    cwd: ROOT,
  },
);

interface Doc {
  readonly file: string;
  readonly data: Record<string, unknown>;
  readonly key: string;
  readonly output: string;
}

/** Documents as the platform reads them (pipewright's one YAML reader). */
const parse = (text: string) => readYaml(text, 'corpus').documents.map((d) => d.value as Record<string, unknown>);

async function corpusDocuments(): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (const file of CORPUS.sort())
    for (const data of parse(await readFile(join(ROOT, file), 'utf8'))) {
      const kind = kindOfDocument(data);
      if (!kind) continue;
      const key = keyOf(kind, (data as Record<string, unknown>)[kindRow(kind).rootKey])!;
      docs.push({ file, data, key: keyId(key), output: outputPathOf(key) });
    }
  return docs;
}

/** Groups documents so that no group holds two resources with the same identity (compile rejects that). */
function batches(docs: readonly Doc[]): Doc[][] {
  const groups: Doc[][] = [];
  for (const doc of docs) {
    const group = groups.find((g) => !g.some((d) => d.key === doc.key));
    if (group) group.push(doc);
    else groups.push([doc]);
  }
  return groups;
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(cleanups.map((c) => c())));

describe('import then compile reproduces every corpus document', async () => {
  const docs = await corpusDocuments();

  it('has a corpus worth the name', () => {
    expect(docs.length).toBeGreaterThanOrEqual(6);
  });

  it.each(batches(docs).map((group, index) => [index + 1, group] as const))('batch %i', async (_, group) => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const inputs: string[] = [];
    for (const [index, doc] of group.entries()) {
      const file = join(dir, 'yaml', `${index}.yaml`);
      await mkdir(join(dir, 'yaml'), { recursive: true });
      await writeFile(file, YAML.stringify(doc.data, { version: '1.1' }));
      inputs.push(file);
    }
    const imported = await runCli(['import', ...inputs, '-o', join(dir, 'ts')], { cwd: dir });
    expect(imported.stderr).not.toContain('[error');
    expect(imported.code).toBe(0);
    const compiled = await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir });
    expect(compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
    for (const doc of group) {
      const [back] = parse(await readFile(join(dir, 'out', doc.output), 'utf8'));
      expect(back, `${doc.file} (${doc.key})`).toEqual(doc.data);
    }
  });
});

describe('import --mode project', () => {
  it('turns a 50-pipeline folder into a project whose compile reproduces every document', async () => {
    const docs = (await corpusDocuments()).filter((d) => 'pipeline' in d.data);
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const originals: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 50; i++) {
      const source = structuredClone(docs[i % docs.length]!.data) as { pipeline: Record<string, unknown> };
      source.pipeline.identifier = `pipeline_${i}`;
      source.pipeline.projectIdentifier = `team_${i % 5}`;
      originals.push(source);
      await mkdir(join(dir, '.harness', `team_${i % 5}`), { recursive: true });
      await writeFile(join(dir, '.harness', `team_${i % 5}`, `p${i}.yaml`), YAML.stringify(source, { version: '1.1' }));
    }
    const imported = await runCli(['import', '--mode', 'project', '.harness', '-o', 'platform'], { cwd: dir });
    expect(imported.stderr).not.toContain('[error');
    expect(imported.stdout).toMatch(
      /^imported 50 documents into platform \(\d+ typed, \d+ partly raw, 0 need attention\):/,
    );
    expect(imported.stdout).toContain('  pipewright.config.ts');
    const compiled = await runCli(['compile'], { cwd: join(dir, 'platform') });
    expect(compiled.stderr).toBe('');
    expect(compiled.stdout).toBe('compiled 50 documents to out: 51 written, 0 unchanged, 0 removed\n');
    for (const original of originals) {
      const body = original.pipeline as Record<string, string>;
      const file = join(
        dir,
        'platform/out/pipelines',
        body.orgIdentifier!,
        body.projectIdentifier!,
        `${body.identifier}.yaml`,
      );
      expect(parse(await readFile(file, 'utf8'))[0]).toEqual(original);
    }
  });
});
