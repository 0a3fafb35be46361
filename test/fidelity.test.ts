import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { kindOfDocument } from '../src/catalog/kinds.js';
import { validateDocument } from '../src/check/check-document.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { MUTATION_CLASSES, mutantsOf, placeOf, seededRandom, typesOf } from '../scripts/fidelity/mutate.mjs';
import {
  documentedPatterns,
  loadOfficial,
  matchesPattern,
  runFidelity,
  type FidelityResult,
  type Judge,
} from '../scripts/fidelity/run.mjs';

const ROOT = join(import.meta.dirname, '..');
const SHARED = join(ROOT, '..', 'shared');
const hasShared = existsSync(join(SHARED, 'corpus')) && existsSync(join(SHARED, 'tools', 'official-schema.mjs'));

/** What validate says of one document: refused when any diagnostic is an error (as scripts/fidelity.mjs asks). */
const pipewright: Judge = (doc) => {
  const kind = kindOfDocument(doc);
  if (!kind) return { refused: true, first: 'not a platform document' };
  const error = validateDocument(kind, doc).find((d) => d.severity === 'error');
  return { refused: Boolean(error), ...(error ? { first: `[${error.code}] ${error.message}` } : {}) };
};

const SMALL = {
  pipeline: {
    name: 'p',
    identifier: 'p',
    stages: [
      {
        stage: {
          name: 's',
          identifier: 's',
          type: 'Custom',
          spec: {
            execution: { steps: [{ step: { name: 'a', identifier: 'a', type: 'Wait', spec: { duration: '1m' } } }] },
          },
        },
      },
    ],
  },
};

describe('the mutation generator', () => {
  const context = () => ({
    random: seededRandom(1),
    enums: new Set(['Custom', 'Wait']),
    types: typesOf([SMALL]),
    rootKey: 'pipeline',
  });

  it('makes the same mutants for the same seed, and leaves the document as it was', () => {
    const before = structuredClone(SMALL);
    const once = [...mutantsOf(SMALL, 'misspell-key', context())].map((m) => JSON.stringify(m.make()));
    const again = [...mutantsOf(SMALL, 'misspell-key', context())].map((m) => JSON.stringify(m.make()));
    expect(once).toEqual(again);
    expect(once.length).toBeGreaterThan(5);
    expect(SMALL).toEqual(before);
  });

  it('changes exactly the value at the mutant path', () => {
    const dropped = [...mutantsOf(SMALL, 'drop-key', context())].find(
      (m) => m.path.join('.') === 'pipeline.stages.0.stage.spec.execution.steps.0.step.spec.duration',
    )!;
    const doc = dropped.make() as typeof SMALL;
    expect(doc.pipeline.stages[0]!.stage.spec.execution.steps[0]!.step.spec).toEqual({});
    const emptied = [...mutantsOf(SMALL, 'empty-list', context())].map((m) => m.path.join('.'));
    expect(emptied).toEqual(['pipeline.stages', 'pipeline.stages.0.stage.spec.execution.steps']);
  });

  it('has every class produce mutants of a stage with steps (nest-step needs a step seen in another stage type)', () => {
    const ci = {
      pipeline: {
        ...SMALL.pipeline,
        stages: [
          ...SMALL.pipeline.stages,
          {
            stage: {
              name: 'c',
              identifier: 'c',
              type: 'CI',
              spec: {
                execution: { steps: [{ step: { name: 'r', identifier: 'r', type: 'Run', spec: { command: 'x' } } }] },
              },
            },
          },
        ],
      },
    };
    const types = typesOf([ci]);
    for (const mutation of MUTATION_CLASSES)
      expect(
        [
          ...mutantsOf(ci, mutation, {
            random: seededRandom(2),
            enums: new Set(['Custom', 'Wait']),
            types,
            rootKey: 'pipeline',
          }),
        ].length,
        mutation,
      ).toBeGreaterThan(0);
  });

  it('names a place by its stage and step types, without list positions', () => {
    expect(
      placeOf(SMALL, ['pipeline', 'stages', 0, 'stage', 'spec', 'execution', 'steps', 0, 'step', 'spec', 'duration']),
    ).toBe('pipeline.stages.stage(Custom).spec.execution.steps.step(Wait).spec.duration');
  });

  it('matches documented classes by pattern', () => {
    const patterns = documentedPatterns(
      '## Documented disagreements\n\n| class | why |\n|---|---|\n| `drop-key miss *.spec.repo` | x |\n\n## Next\n| `other` | y |\n## Open misses\n| `z` | w |\n',
    );
    expect(patterns).toEqual(['drop-key miss *.spec.repo', 'z']);
    expect(matchesPattern('drop-key miss pipeline.stages.stage(CI).spec.repo', patterns[0]!)).toBe(true);
    expect(matchesPattern('drop-key false-error pipeline.stages.stage(CI).spec.repo', patterns[0]!)).toBe(false);
  });
});

describe.skipIf(!hasShared)(
  'validate against the platform schema, on mutants of ../shared/corpus (skipped without ../shared)',
  () => {
    let result: FidelityResult;
    beforeAll(async () => {
      const Ajv = createRequire(import.meta.url)('ajv').default;
      const { official, schemas } = await loadOfficial({ sharedDir: SHARED, Ajv });
      // One seeded mutant per class and document: about 1,600 mutants (scripts/fidelity.mjs runs them all).
      result = runFidelity({
        corpusRoot: join(SHARED, 'corpus'),
        readYaml,
        pipewright,
        official,
        schemas,
        seed: 27,
        perClass: 1,
      });
    }, 240_000);

    it('disagrees only where docs/fidelity.md says why', () => {
      const patterns = documentedPatterns(readFileSync(join(ROOT, 'docs', 'fidelity.md'), 'utf8'));
      const undocumented = result.classes.filter((c) => !patterns.some((pattern) => matchesPattern(c.name, pattern)));
      expect(
        undocumented.map(
          (c) =>
            `${c.name}: ${c.sample.file} at ${c.sample.path}; pipewright: ${c.sample.pipewright ?? 'accepts'}; schema: ${c.sample.official ?? 'accepts'}`,
        ),
      ).toEqual([]);
    });

    it('judged every kind the platform publishes a schema for', () => {
      expect([...result.tally.values()].reduce((sum, count) => sum + count.mutants, 0)).toBeGreaterThan(1000);
    });
  },
);
