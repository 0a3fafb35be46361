import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { generatedFile } from '../src/yaml/emit-yaml.js';
import { expressionProblem } from '../src/check/rules.js';
import { deployment, input, pipeline, project, shell, stage } from 'pipewright';

/** Strings YAML likes to reinterpret, mixed with arbitrary unicode text. */
const tricky = fc.oneof(
  fc.constantFrom(
    'yes',
    'no',
    'on',
    'off',
    'y',
    'n',
    'Yes',
    'TRUE',
    'null',
    '~',
    '',
    ' ',
    '0123',
    '0x1F',
    '1e3',
    '1_000',
    '12:30',
    '.inf',
    '-.5',
    '+1',
    '2024-01-01',
    '#0063F7',
    'a #b',
    'a: b',
    '- x',
    '? x',
    '<+input>',
    '<+pipeline.name>',
    ' lead',
    'trail ',
    '"quoted"',
    "it's",
    '{a}',
    '[a]',
    '*alias',
    '&anchor',
    '!tag',
    '%dir',
    '@at',
    '`tick`',
    '|',
    '>',
    'line1\nline2',
    'line1\nline2\n',
    '\n\nlead newlines',
    'tab\there',
    'cr\r\nlf',
    'é ü 🚀',
    '\u0000nul',
    '---',
    '...',
    'key:value',
    '- ',
    '#',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
);

const roundTrip = (document: unknown) => YAML.parse(generatedFile(document, 'test.ts'), { version: '1.1' });

describe('every string comes back exactly as given', () => {
  it('in names, descriptions, scripts, tags and variables', () => {
    fc.assert(
      fc.property(
        tricky,
        tricky,
        tricky,
        tricky,
        tricky,
        tricky,
        (name, description, script, tagKey, tagValue, variable) => {
          const built = pipeline({
            identifier: 'p',
            name: name || 'n',
            description,
            project: 'x',
            tags: { [tagKey]: tagValue },
            variables: { v: variable },
          })
            .stage(stage({ identifier: 's', type: 'Custom', description, spec: { note: variable } }))
            .step(shell({ identifier: 'x', name: name || 'n', script, env: { E: variable } }))
            .toDocument();
          expect(roundTrip(built)).toEqual(built);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('in projects', () => {
    fc.assert(
      fc.property(tricky, tricky, (name, description) => {
        const built = project({ identifier: 'p', name, description, tags: [description] }).toDocument();
        expect(roundTrip(built)).toEqual(built);
      }),
      { numRuns: 200 },
    );
  });
});

const identifier = fc.stringMatching(/^[a-zA-Z_][0-9a-zA-Z_]{0,12}$/);
/** Scripts whose `<+...>` expressions are balanced: anything else is rightly rejected by validation. */
const wellFormed = tricky.filter((text) => expressionProblem(text) === undefined);
const duration = fc.constantFrom('10m', '1h30m', '1d', '30s', '2w', '1h 30m', '<+input>');

const arbitraryPipeline = fc.record({
  id: identifier,
  stages: fc.uniqueArray(
    fc.record({
      id: identifier,
      deploy: fc.boolean(),
      steps: fc.uniqueArray(fc.record({ id: identifier, script: wellFormed, timeout: duration }), {
        selector: (s) => s.id,
        minLength: 1,
        maxLength: 6,
      }),
    }),
    { selector: (s) => s.id, minLength: 1, maxLength: 5 },
  ),
});

describe('arbitrary valid pipelines', () => {
  it('validate cleanly and survive builder -> YAML -> parse unchanged', () => {
    fc.assert(
      fc.property(arbitraryPipeline, ({ id, stages }) => {
        let built = pipeline({ identifier: id, project: 'web' });
        for (const s of stages) {
          built = built.stage(
            s.deploy
              ? deployment({
                  identifier: s.id,
                  service: input(),
                  environment: 'prod',
                  infrastructure: { connector: input(), namespace: 'ns' },
                })
              : stage({ identifier: s.id, type: 'Custom' }),
          );
          for (const step of s.steps)
            built = built.step(shell({ identifier: step.id, script: step.script, timeout: step.timeout }));
        }
        const { documents, diagnostics } = buildAndValidate([{ resource: built, file: 'test.ts', exportName: 'p' }]);
        expect(diagnostics).toEqual([]);
        expect(roundTrip(documents[0]!.document)).toEqual(documents[0]!.document);
      }),
      { numRuns: 150 },
    );
  });
});
