import { describe, expect, it } from 'vitest';
import type { ResourceKey } from '../src/catalog/resource-key.js';
import { checkAcross, type AcrossRecord } from '../src/check/check-across.js';

/** The checker alone, on records whose places are plain names: what each check finds, and whom it involves. */

const WORDS = { first: (place: string) => `at ${place}`, targetDefined: (place: string) => `${place}'s target` };
const check = (records: Array<AcrossRecord<string>>, options = {}) =>
  checkAcross(records, WORDS, options).map(({ diagnostic, record, reference, involved }) => ({
    code: diagnostic.code,
    message: diagnostic.message,
    hint: diagnostic.hint,
    at: reference ? reference.place : record.place,
    involved: involved.map((r) => r.place),
  }));

const web = { org: 'default', project: 'web' };
const pipelineKey = (identifier: string, scope: Partial<ResourceKey> = web): ResourceKey => ({
  kind: 'pipeline',
  identifier,
  ...scope,
});
const hub = (scope: Partial<ResourceKey>): ResourceKey => ({ kind: 'connector', identifier: 'hub', ...scope });
const uses = (target: ResourceKey, by: 'builder' | 'text' = 'builder') => [
  { target, by, path: ['pipeline', 'x'], place: 'ref' },
];

describe('the check across documents', () => {
  it('reports the second of one identity at itself, naming the first, and involves both', () => {
    const found = check([
      { key: pipelineKey('a'), place: 'one' },
      { key: pipelineKey('a', { org: 'default' }), place: 'org-level' },
      { key: pipelineKey('a'), place: 'two' },
    ]);
    expect(found).toEqual([
      {
        code: 'duplicate-resource',
        message: 'pipeline "a" in project default/web is defined twice',
        hint: 'the other one is at one; rename one identifier',
        at: 'two',
        involved: ['two', 'one'],
      },
    ]);
  });

  it('takes two versions of a template for two resources', () => {
    const template = (version: string): ResourceKey => ({ kind: 'template', identifier: 't', version, ...web });
    expect(
      check([
        { key: template('1'), place: 'a' },
        { key: template('2'), place: 'b' },
      ]),
    ).toEqual([]);
    expect(
      check([
        { key: template('1'), place: 'a' },
        { key: template('1'), place: 'b' },
      ]).map((f) => f.code),
    ).toEqual(['duplicate-resource']);
  });

  it('reports a builder reference to what is neither among the records nor known, at the reference', () => {
    const version = (v: string): ResourceKey => ({ kind: 'template', identifier: 't', version: v, ...web });
    const records = [
      { key: pipelineKey('p'), place: 'p', references: uses(version('2')) },
      { key: version('1'), place: 't1' },
    ];
    expect(check(records)).toEqual([
      {
        code: 'unresolved-reference',
        message:
          'references template "t" (version 2) in project default/web, which is not among the compiled resources',
        hint: "export it from a compiled file (defined at ref's target), or give the identifier as a string if it already exists on the platform",
        at: 'ref',
        involved: ['p'],
      },
    ]);
    expect(check(records, { known: [version('2')] })).toEqual([]);
    // Text names what may exist on the platform only: never unresolved.
    expect(check([{ key: pipelineKey('p'), place: 'p', references: uses(version('2'), 'text') }])).toEqual([]);
  });

  it('reports a connector the referring document cannot see; one of its project, org or account it can', () => {
    const referrer = (target: ResourceKey): AcrossRecord<string> => ({
      key: pipelineKey('p'),
      place: 'p',
      references: uses(target),
    });
    for (const scope of [web, { org: 'default' }, {}])
      expect(check([referrer(hub(scope)), { key: hub(scope), place: 'hub' }])).toEqual([]);
    const other = hub({ org: 'default', project: 'other' });
    expect(check([referrer(other), { key: other, place: 'hub' }])).toEqual([
      {
        code: 'out-of-scope-reference',
        message: 'uses connector "hub" in project default/other, which pipeline "p" in project default/web cannot see',
        hint: 'a document sees connectors of its own project, its org, and the account; move the connector up a level or into this project',
        at: 'ref',
        involved: ['p'],
      },
    ]);
  });

  const inputSet = (values: Record<string, unknown>): AcrossRecord<string> => ({
    key: { kind: 'inputSet', identifier: 'prod', parent: 'deploy', ...web },
    place: 'input set',
    document: { inputSet: { identifier: 'prod', pipeline: { identifier: 'deploy', ...values } } },
  });
  const deploy = (place = 'pipeline'): AcrossRecord<string> => ({
    key: pipelineKey('deploy'),
    place,
    // Keyed as input-fields.ts keys the pipeline's fields (the platform's FQN keys).
    runtimeInputs: () => [
      { key: 'pipeline/variables/[name:env]/value', path: ['pipeline', 'variables', 0, 'value'], optional: false },
    ],
  });
  const env = (value: string) => ({ variables: [{ name: 'env', type: 'String', value }] });

  it('checks an input set against its pipeline among the records, involving both', () => {
    expect(check([deploy(), inputSet(env('prod'))])).toEqual([]);
    expect(check([deploy(), inputSet({ variables: [{ name: 'team', type: 'String', value: 'x' }] })])).toEqual([
      {
        code: 'input-set-not-an-input',
        message: 'variables.team is not a runtime input of pipeline "deploy"',
        hint: 'the platform refuses an input set that sets a field the pipeline fixes; make the field <+input> in the pipeline, or remove it here',
        at: 'input set',
        involved: ['input set', 'pipeline'],
      },
      expect.objectContaining({
        code: 'input-set-missing-input',
        at: 'input set',
        involved: ['input set', 'pipeline'],
      }),
    ]);
  });

  it('leaves an input set unchecked when its pipeline is not among the records once, and applies the rule settings', () => {
    expect(check([inputSet({ anything: 1 })])).toEqual([]);
    expect(check([deploy('a'), deploy('b'), inputSet({ anything: 1 })]).map((f) => f.code)).toEqual([
      'duplicate-resource',
    ]);
    expect(check([deploy(), inputSet({})]).map((f) => f.code)).toEqual(['input-set-missing-input']);
    expect(check([deploy(), inputSet({})], { settings: { 'input-set-missing-input': 'off' } })).toEqual([]);
  });

  it('asks for a pipeline runtime inputs only when an input set fills it', () => {
    let asked = 0;
    const counted: AcrossRecord<string> = { ...deploy(), runtimeInputs: () => (asked++, []) };
    check([counted]);
    expect(asked).toBe(0);
    check([counted, inputSet(env('prod'))]);
    expect(asked).toBe(1);
  });
});
