import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { custom, input, inputSet, pipeline, project, shell, type AnyResource } from 'pipewright';
import { assertNoDiagnostics, assertNoErrors, findDocument, synth, SynthAssertionError } from 'pipewright/testing';
import { generatedHeader } from '../src/yaml/emit-yaml.js';
import { ROOT } from './support/cli.js';
import * as release from '../examples/testing/release.js';

// `pipewright/testing`: synth runs compile's own build and checks (src/compile/build-documents.ts) on builders
// in memory; these tests hold it to what compile writes and reports.

const shop = project({ identifier: 'shop', name: 'Shop', org: 'default' });
const hello = (identifier: string) =>
  pipeline({ identifier, name: identifier, project: shop, variables: { who: input() } })
    .stage(custom({ identifier: 'greet', name: 'greet' }))
    .step(shell({ identifier: 'hello', name: 'hello', script: 'echo hello', timeout: '1m' }));

describe('synth', () => {
  it("gives a module's documents as compile writes them: each golden file is its header and the document's yaml", async () => {
    const result = synth(release);
    expect(result.diagnostics).toEqual([]);
    expect(result.documents.map((d) => [d.kind, d.key, d.path, d.source])).toEqual([
      [
        'inputSet',
        { kind: 'inputSet', org: 'default', project: 'shop', parent: 'release', identifier: 'nightly' },
        'input-sets/default/shop/release/nightly.yaml',
        { file: 'examples/testing/release.ts', exportName: 'nightly' },
      ],
      [
        'pipeline',
        { kind: 'pipeline', org: 'default', project: 'shop', identifier: 'release' },
        'pipelines/default/shop/release.yaml',
        { file: 'examples/testing/release.ts', exportName: 'release' },
      ],
      [
        'project',
        { kind: 'project', org: 'default', identifier: 'shop' },
        'projects/default/shop.yaml',
        { file: 'examples/testing/release.ts', exportName: 'shop' },
      ],
    ]);
    for (const document of result.documents) {
      const golden = await readFile(join(ROOT, 'examples/testing/expected', document.path), 'utf8');
      expect(generatedHeader('examples/testing/release.ts') + document.yaml, document.path).toBe(golden);
      expect(document.data).toEqual(
        (release[document.source.exportName as keyof typeof release] as AnyResource).toDocument(),
      );
    }
  });

  it('takes builders, lists of them and nested lists, a builder given twice counted once', () => {
    const pipelineOne = hello('one');
    const result = synth([shop, [pipelineOne, hello('two')], pipelineOne]);
    expect(result.documents.map((d) => [d.path, d.source.exportName])).toEqual([
      ['projects/default/shop.yaml', 'builders[0]'],
      ['pipelines/default/shop/one.yaml', 'builders[1][0]'],
      ['pipelines/default/shop/two.yaml', 'builders[1][1]'],
    ]);
    expect(result.documents[1]!.source.file).toBe('test/testing.test.ts');
    expect(synth(shop).documents.map((d) => d.path)).toEqual(['projects/default/shop.yaml']);
  });

  it('refuses what is not a builder, naming where it is', () => {
    expect(() => synth([shop, { pipeline: { identifier: 'x' } } as never])).toThrowError(
      'synth: builders[1] is not a pipewright builder (got object)',
    );
    expect(() => synth('deploy' as never)).toThrowError("synth: expected builders or a module's exports, got string");
  });

  it('reports an exported plain document as compile does, instead of skipping it', () => {
    const result = synth({ shop, raw: { pipeline: { identifier: 'x', name: 'x' } } });
    expect(result.documents).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        'plain-document-export',
        'export "raw" is a plain pipeline document, not a builder, so it would be silently skipped',
      ],
    ]);
  });

  it('applies the checks across documents: an identity defined twice, an input set against its pipeline', () => {
    const twice = synth([shop, hello('same'), hello('same')]);
    expect(twice.diagnostics.map((d) => [d.code, d.severity, d.location?.file])).toEqual([
      ['duplicate-resource', 'error', 'test/testing.test.ts'],
    ]);

    const partial = inputSet({ identifier: 'empty', name: 'empty', pipeline: hello('greeter'), values: {} });
    const unset = synth([shop, hello('greeter'), partial]);
    expect(unset.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      ['input-set-missing-input', 'warning', 'leaves variables.who of pipeline "greeter" unset, and it has no default'],
    ]);
    // As `rules` in pipewright.config.ts would set it.
    expect(
      synth([shop, hello('greeter'), partial], { rules: { 'input-set-missing-input': 'off' } }).diagnostics,
    ).toEqual([]);
  });
});

describe('findDocument', () => {
  const result = synth([
    shop,
    hello('one'),
    inputSet({
      identifier: 'one',
      name: 'one',
      pipeline: hello('one'),
      values: { variables: [{ name: 'who', type: 'String', value: 'me' }] },
    }),
  ]);

  it('finds a document by identifier, or by any part of its key', () => {
    expect(findDocument(result, 'shop').kind).toBe('project');
    expect(findDocument(result, { kind: 'inputSet', identifier: 'one' }).path).toBe(
      'input-sets/default/shop/one/one.yaml',
    );
    expect(findDocument(result, { parent: 'one', identifier: 'one' }).kind).toBe('inputSet');
  });

  it('says which documents there are when none or several match', () => {
    expect(() => findDocument(result, 'missing')).toThrowError(
      'no document with identifier "missing" among the 3 synthesized:\n  project default/shop\n  pipeline default/shop/one\n  inputSet default/shop/one/one',
    );
    expect(() => findDocument(result, 'one')).toThrowError(
      '2 documents with identifier "one": name the kind, project or version too:\n  pipeline default/shop/one\n  inputSet default/shop/one/one',
    );
  });
});

describe('the assertions', () => {
  const broken = pipeline({ identifier: 'broken', name: 'broken', project: shop })
    .stage(custom({ identifier: 'go', name: 'go' }))
    .step(shell({ identifier: 'a', name: 'a', script: 'echo a', timeout: 'soon' }));

  it('list each error at its place, as compile prints them', () => {
    const result = synth([shop, broken]);
    let thrown: unknown;
    try {
      assertNoErrors(result);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SynthAssertionError);
    expect((thrown as SynthAssertionError).diagnostics).toEqual(result.diagnostics);
    expect((thrown as Error).message).toMatchInlineSnapshot(`
      "expected no error, found 1:
      test/testing.test.ts:133:11  pipeline "broken" > stage "go" > step "a": timeout "soon" is not a duration (e.g. 10m, 1h30m, 1d) [error invalid-format]

      1 error"
    `);
  });

  it('assertNoErrors passes warnings; assertNoDiagnostics does not', () => {
    const result = synth([
      shop,
      hello('greeter'),
      inputSet({ identifier: 'empty', name: 'empty', pipeline: hello('greeter'), values: {} }),
    ]);
    expect(() => assertNoErrors(result)).not.toThrow();
    expect(() => assertNoDiagnostics(result)).toThrowError(
      /^expected no diagnostics, found 1:\n.*input-set-missing-input/,
    );
    expect(() => assertNoDiagnostics(synth([shop, hello('greeter')]))).not.toThrow();
  });

  it('passes an error suppressed with .suppress(code, reason): compile would write the document', () => {
    const quiet = pipeline({ identifier: 'quiet', name: 'quiet', project: shop })
      .stage(custom({ identifier: 'go', name: 'go' }))
      .step(
        shell({ identifier: 'a', name: 'a', script: 'echo a', timeout: 'soon' }).suppress(
          'invalid-format',
          'the platform takes it here',
        ),
      );
    const result = synth([shop, quiet]);
    expect(result.diagnostics.map((d) => [d.code, d.suppressed?.reason])).toEqual([
      ['invalid-format', 'the platform takes it here'],
    ]);
    expect(() => assertNoErrors(result)).not.toThrow();
    expect(() => assertNoDiagnostics(result)).not.toThrow();
  });
});
