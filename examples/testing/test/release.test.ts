import { describe, expect, it } from 'vitest';
import { custom, inputSet, pipeline } from 'pipewright';
import { assertNoErrors, findDocument, synth } from 'pipewright/testing';
import * as definitions from '../release.js';
import { release, shop, smokeTest } from '../release.js';

// Unit tests of pipeline code with `pipewright/testing`: `synth` builds the documents with every check compile
// applies (placement, references, input sets against their pipeline, identities defined twice) and gives
// them back with their YAML, and the diagnostics as data.

describe('the release definitions', () => {
  it('compile without errors, to the files compile would write', () => {
    const result = synth(definitions);
    assertNoErrors(result);
    expect(result.documents.map((document) => document.path)).toEqual([
      'input-sets/default/shop/release/nightly.yaml',
      'pipelines/default/shop/release.yaml',
      'projects/default/shop.yaml',
    ]);
  });

  it('end the release with the smoke test, after the roll-out', () => {
    const { data } = findDocument(synth(definitions), { kind: 'pipeline', identifier: 'release' });
    expect(data).toMatchObject({ pipeline: { stages: [{ stage: { identifier: 'deploy' } }] } });
    const steps = (
      data as {
        pipeline: {
          stages: Array<{ stage: { spec: { execution: { steps: Array<{ step: { identifier: string } }> } } } }>;
        };
      }
    ).pipeline.stages[0]!.stage.spec.execution.steps;
    expect(steps.map(({ step }) => step.identifier)).toEqual(['roll_out', 'smoke_test']);
  });
});

describe('the smoke test step', () => {
  // A pipeline of the test's own, to try the building block alone.
  const probe = (...urls: string[]) =>
    urls.reduce(
      (built, url) => built.step(smokeTest(url)),
      pipeline({ identifier: 'probe', name: 'probe', project: shop }).stage(
        custom({ identifier: 'check', name: 'check' }),
      ),
    );

  it('checks the health of the URL it is given, as a Bash step of two minutes', () => {
    const { yaml } = findDocument(synth([shop, probe('https://staging.example.com')]), 'probe');
    expect(yaml.slice(yaml.indexOf('          execution:'))).toMatchInlineSnapshot(`
      "          execution:
                  steps:
                    - step:
                        type: ShellScript
                        name: smoke test
                        identifier: smoke_test
                        spec:
                          shell: Bash
                          onDelegate: true
                          source:
                            type: Inline
                            spec:
                              script: curl --fail --retry 5 https://staging.example.com/health
                        timeout: 2m
      "
    `);
  });

  it('cannot be used twice in one stage: its identifier is fixed', () => {
    const result = synth([shop, probe('https://a.example.com', 'https://b.example.com')]);
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([['duplicate-identifier', 'error']]);
    expect(() => assertNoErrors(result)).toThrowError(
      /expected no error, found 1:\n.*release\.test\.ts:\d+:\d+ .*smoke_test/,
    );
  });
});

describe('an input set of the release pipeline', () => {
  it('may not set a field the pipeline fixes', () => {
    const wrong = inputSet({
      identifier: 'pinned',
      name: 'pinned',
      pipeline: release,
      values: { variables: [{ name: 'version', type: 'String', value: '1.2.3' }], timeout: '1h' },
    });
    const result = synth([shop, release, wrong]);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      ['input-set-not-an-input', 'error', 'timeout is not a runtime input of pipeline "release"'],
    ]);
    expect(() => assertNoErrors(result)).toThrowError(
      /expected no error, found 1:\n.*timeout is not a runtime input of pipeline "release"/,
    );
  });
});
