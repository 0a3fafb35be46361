import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { raw, type AnyResource } from 'pipewright';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { formatDiagnostic } from '../src/core/diagnostics.js';
import { toYaml } from '../src/yaml/emit-yaml.js';
import { kindOfDocument } from '../src/catalog/kinds.js';
import { validateFiles } from '../src/validate/validate-files.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { ROOT } from './support/cli.js';

/**
 * The corpus: realistic pipelines under test/fixtures/valid (each must validate with no diagnostic and
 * compile back to the same data), and broken variants under test/fixtures/invalid, each with the exact
 * located messages in a sibling .expected.txt. Paths are relative to the repository root, as a user types them.
 */
const VALID = (await glob('test/fixtures/valid/*.yaml', { cwd: ROOT })).sort();
const INVALID = (await glob('test/fixtures/invalid/*.yaml', { cwd: ROOT })).sort();

/** Documents as the platform reads them (pipewright's one YAML reader). */
const parseAll = (text: string) => readYaml(text, 'fixture').documents.map((d) => d.value as Record<string, unknown>);

describe('the corpus', () => {
  it('has at least 30 valid pipeline documents and 20 invalid variants', async () => {
    let pipelines = 0;
    for (const file of VALID)
      pipelines += parseAll(await readFile(join(ROOT, file), 'utf8')).filter(
        (d) => kindOfDocument(d) === 'pipeline',
      ).length;
    expect(pipelines).toBeGreaterThanOrEqual(30);
    expect(INVALID.length).toBeGreaterThanOrEqual(20);
  });
});

describe('valid fixtures', () => {
  it.each(VALID)('%s validates with no diagnostics', async (file) => {
    const [result] = await validateFiles([join(ROOT, file)]);
    // A file of several documents is fine for pipewright, but the platform reads only the first of a file: said once.
    const several = YAML.parseAllDocuments(await readFile(join(ROOT, file), 'utf8')).length > 1;
    expect(
      result!.diagnostics.filter((d) => d.code !== 'yaml-multiple-documents').map((d) => formatDiagnostic(d)),
    ).toEqual([]);
    expect(result!.diagnostics.filter((d) => d.code === 'yaml-multiple-documents').length).toBe(several ? 1 : 0);
    expect(result!.documents).toBeGreaterThan(0);
  });

  it.each(VALID)('%s compiles unchanged (same data after YAML and back)', async (file) => {
    const documents = parseAll(await readFile(join(ROOT, file), 'utf8'));
    const resources = documents.map((document) => {
      const kind = kindOfDocument(document)!;
      return raw[kind](document) as AnyResource;
    });
    const built = buildAndValidate(resources.map((resource, index) => ({ resource, file, exportName: `doc${index}` })));
    expect(built.diagnostics).toEqual([]);
    expect(built.documents.map((d) => parseAll(toYaml(d.document))[0])).toEqual(documents);
  });
});

describe('invalid fixtures', () => {
  it.each(INVALID)('%s gives exactly the expected located messages', async (file) => {
    const expected = await readFile(join(ROOT, file.replace(/\.yaml$/, '.expected.txt')), 'utf8');
    const [result] = await validateFiles([file]);
    expect(result!.diagnostics.length).toBeGreaterThan(0);
    expect(`${result!.diagnostics.map((d) => formatDiagnostic(d)).join('\n')}\n`).toBe(expected);
  });
});
