import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pipeline, step, custom, approval } from 'pipewright';
import { kindOfDocument } from '../src/catalog/kinds.js';
import { validateDocument } from '../src/check/check-document.js';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { loadOfficial } from '../scripts/fidelity/run.mjs';

/**
 * The patterns of issue 27, each a small document of ours (test/fixtures/fidelity) with the platform's verdict:
 * what validate must say (`refused`: an error; `warns`: the warning codes) and what the platform's published
 * schema says of it (checked against the schema itself when ../shared is present).
 */
const FIXTURES = join(import.meta.dirname, 'fixtures', 'fidelity');
const PATTERNS: Record<string, { refused: boolean; warns?: string[]; schema: 'accepts' | 'refuses'; why: string }> = {
  'legacy-service-use-from-stage.yaml': {
    refused: false,
    schema: 'accepts',
    why: "serviceConfig.useFromStage: the older form of deploying an earlier stage's service",
  },
  'legacy-inline-service-and-environment.yaml': {
    refused: false,
    schema: 'accepts',
    why: 'inline service and environment, serviceDefinition artifacts and manifests, stageOverrides',
  },
  'http-input-variables.yaml': {
    refused: false,
    schema: 'accepts',
    why: 'HttpStepInfo has inputVariables on the platform',
  },
  'ci-stage-without-infrastructure.yaml': {
    refused: false,
    warns: ['no-build-infrastructure'],
    schema: 'accepts',
    why: 'saved; fails when it runs',
  },
  'pipeline-without-stages.yaml': { refused: false, schema: 'accepts', why: 'the schema requires no stages' },
  'approval-coercible-text.yaml': {
    refused: false,
    schema: 'accepts',
    why: 'Jackson reads "2" and "true" as a number and a boolean',
  },
  'github-connector.yaml': { refused: false, schema: 'accepts', why: 'a Github connector with its spec.type' },
  'http-output-without-type.yaml': { refused: true, schema: 'refuses', why: 'an output variable is read by its type' },
  'approval-text-for-number-and-boolean.yaml': {
    refused: true,
    schema: 'accepts',
    why: 'Jackson cannot read "one" as a number or "nope" as a boolean when the platform saves the stage',
  },
  'rolling-skip-dry-run-maybe.yaml': {
    refused: true,
    schema: 'accepts',
    why: 'Jackson cannot read "maybe" as a boolean',
  },
  'github-connector-without-type.yaml': {
    refused: true,
    schema: 'refuses',
    why: 'the connector schema requires spec.type',
  },
  'deployment-without-failure-strategies.yaml': {
    refused: true,
    schema: 'refuses',
    why: 'DeploymentStageNode requires failureStrategies (AbstractStageNodeWithFailureInfo, @NotNull)',
  },
  // Issue 41: patterns of documents nobody here had seen (docs/fidelity.md, "Patterns of issue 41").
  'custom-stage-run-step.yaml': {
    refused: false,
    warns: ['step-not-allowed'],
    schema: 'accepts',
    why: 'saved; the container step finds no container when it runs',
  },
  'newrelic-connector-number-account.yaml': {
    refused: false,
    schema: 'refuses',
    why: 'a connector is read by Jackson without a schema check: the number is taken as its text',
  },
  'string-variable-number.yaml': {
    refused: true,
    schema: 'refuses',
    why: 'a pipeline is checked against the schema first, which refuses a number where it says string',
  },
  'template-version-expression.yaml': {
    refused: true,
    schema: 'refuses',
    why: 'the version is looked up as written when the pipeline is saved',
  },
  'notification-rule-partial.yaml': {
    refused: false,
    warns: ['notification-sends-nothing'],
    schema: 'accepts',
    why: 'the platform reads notification rules only when an event fires; this one sends nothing',
  },
};

const read = (file: string) => readYaml(readFileSync(join(FIXTURES, file), 'utf8'), file).documents[0]!.value;
const diagnosticsOf = (file: string) => {
  const document = read(file);
  return validateDocument(kindOfDocument(document)!, document);
};

describe('the patterns of issue 27, as validate judges them', () => {
  it('has a verdict for every fixture', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(PATTERNS).sort());
  });

  for (const [file, { refused, warns = [], why }] of Object.entries(PATTERNS))
    it(`${refused ? 'refuses' : 'accepts'} ${file.replace(/\.yaml$/, '')} (${why})`, () => {
      const diagnostics = diagnosticsOf(file);
      expect(diagnostics.filter((d) => d.severity === 'error').length > 0, JSON.stringify(diagnostics)).toBe(refused);
      if (!refused) expect(diagnostics.map((d) => d.code)).toEqual(warns);
    });

  it('says what is wrong with text where a number or boolean goes, and what Jackson would take', () => {
    expect(
      diagnosticsOf('approval-text-for-number-and-boolean.yaml').map((d) => `${d.path.slice(-1)[0]}: ${d.message}`),
    ).toEqual([
      'disallowPipelineExecutor: spec.approvers.disallowPipelineExecutor "nope" is not true or false (or a <+...> expression)',
      'minimumCount: spec.approvers.minimumCount "one" is not a whole number (or a <+...> expression)',
    ]);
  });

  it('no longer sends the legacy infrastructure.environment to environmentRef', () => {
    expect(diagnosticsOf('legacy-inline-service-and-environment.yaml')).toEqual([]);
  });

  it('refuses the same text in compile, from a builder', () => {
    const approve = step({
      identifier: 'approve',
      type: 'HarnessApproval',
      timeout: '1d',
      spec: {
        approvalMessage: 'ok?',
        includePipelineExecutionHistory: true,
        approvers: { userGroups: ['admins'], minimumCount: 'one', disallowPipelineExecutor: false },
      },
    });
    const found = [
      {
        resource: pipeline({ identifier: 'p', project: 'web' }).stage(approval({ identifier: 'a' }).step(approve)),
        file: 'p.ts',
        exportName: 'p',
      },
    ];
    expect(buildAndValidate(found).diagnostics.map((d) => d.message)).toEqual([
      'spec.approvers.minimumCount "one" is not a whole number (or a <+...> expression)',
    ]);
    const fine = custom({ identifier: 'c' }).step(step({ identifier: 'w', type: 'Wait', spec: { duration: '1m' } }));
    expect(
      buildAndValidate([
        { resource: pipeline({ identifier: 'q', project: 'web' }).stage(fine), file: 'q.ts', exportName: 'q' },
      ]).diagnostics,
    ).toEqual([]);
  });
});

describe('a misspelt key', () => {
  const wait = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    pipeline: {
      name: 'p',
      identifier: 'p',
      orgIdentifier: 'o',
      projectIdentifier: 'p',
      stages: [
        {
          stage: {
            name: 's',
            identifier: 's',
            type: 'Custom',
            spec: { execution: { steps: [{ step: { name: 'w', identifier: 'w', type: 'Wait', spec, ...extra } }] } },
          },
        },
      ],
    },
  });

  it('is a warning where the key it misses is optional: the platform saves the document and drops the value', () => {
    expect(
      validateDocument('pipeline', wait({ duration: '1m' }, { timeuot: '1m' })).map((d) => [d.code, d.severity]),
    ).toEqual([['unknown-key', 'warning']]);
  });

  it('is the error where the key it misses is required, and is reported once', () => {
    expect(validateDocument('pipeline', wait({ duraton: '1m' })).map((d) => [d.code, d.severity, d.hint])).toEqual([
      ['unknown-key', 'error', 'did you mean "duration"?'],
    ]);
  });
});

const SHARED = join(import.meta.dirname, '..', '..', 'shared');
describe.skipIf(!existsSync(join(SHARED, 'tools', 'official-schema.mjs')))(
  "the platform schema's verdict on each fixture (skipped without ../shared)",
  () => {
    it('is the one written beside it', async () => {
      const Ajv = createRequire(import.meta.url)('ajv').default;
      const { official } = await loadOfficial({ sharedDir: SHARED, Ajv, kinds: ['pipelines', 'connectors'] });
      const verdicts = Object.fromEntries(
        Object.keys(PATTERNS).map((file) => {
          const document = read(file) as Record<string, unknown>;
          return [
            file,
            official['pipeline' in document ? 'pipeline' : 'connector']!(document).refused ? 'refuses' : 'accepts',
          ];
        }),
      );
      expect(verdicts).toEqual(
        Object.fromEntries(Object.entries(PATTERNS).map(([file, { schema }]) => [file, schema])),
      );
    }, 120_000);
  },
);
