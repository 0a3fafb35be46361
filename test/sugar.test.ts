/**
 * The declarations of hand-written builders (src/dsl/catalog/sugar.ts, one beside each builder): the builder
 * writes its spec from one, import reads the same one backwards.
 */
import { describe, expect, it } from 'vitest';
import * as pipewright from '../src/index.js';
import { STAGE_TYPES, STEP_TYPES, stepSpecKeys } from '../src/catalog/catalog.js';
import {
  APPROVAL_STEP_TYPES,
  CONTAINER_STEP_TYPES,
  DELEGATE_STAGE_TYPES,
  DEPLOY_STEP_TYPES,
} from '../src/schema/step-categories.js';
import { catalogStepOptions } from '../src/dsl/catalog/catalog-step.js';
import { HAND_WRITTEN_STEPS } from '../src/dsl/catalog/hand-written.js';
import { optionsOfSpec, specOfOptions } from '../src/dsl/catalog/sugar.js';
import { STEP_SUGAR, stepSugar } from '../src/dsl/catalog/sugar-table.js';
import { SHELL_SUGAR, STEP_COMMON_KEYS } from '../src/dsl/step.js';
import { CI_SUGAR, PIPELINE_STAGE_SUGAR } from '../src/dsl/stages-more.js';
import { HARNESS_APPROVAL_SUGAR } from '../src/dsl/steps-approval.js';
import { generateModule } from '../src/import/generate-module.js';

describe('the table of hand-written step builders', () => {
  it('lists each hand-written builder under its exported name, and the builder makes a step of the declared type', () => {
    expect(Object.keys(STEP_SUGAR).sort()).toEqual([...HAND_WRITTEN_STEPS, 'shell'].sort());
    for (const [name, sugar] of Object.entries(STEP_SUGAR)) {
      expect(sugar.builder).toBe(name);
      const builder = (pipewright as unknown as Record<string, (options: object) => { type: string }>)[name]!;
      expect(builder({ identifier: 'x', script: 'true' }).type).toBe(sugar.type);
      expect(stepSugar(sugar.type)).toBe(sugar);
    }
    expect(stepSugar('K8sDelete')).toBeUndefined();
  });

  it("orders every field of each type's spec as the catalogue knows it at run time (the types say the same)", () => {
    for (const sugar of Object.values(STEP_SUGAR)) {
      const missing = (stepSpecKeys(sugar.type) ?? []).filter(
        (key) => !sugar.order.includes(key) && !STEP_COMMON_KEYS.includes(key),
      );
      expect({ type: sugar.type, missing }).toEqual({ type: sugar.type, missing: [] });
    }
  });
});

describe("shell()'s declaration", () => {
  const options = {
    script: 'echo hi',
    shell: 'PowerShell',
    onDelegate: false,
    env: { A: 'a' },
    outputs: ['OUT'],
    delegateSelectors: ['d'],
  };

  it('writes the spec in the platform order, with the defaults for options left out', () => {
    expect(specOfOptions(SHELL_SUGAR, { script: 'true', outputs: ['X'] })).toEqual({
      shell: 'Bash',
      onDelegate: true,
      source: { type: 'Inline', spec: { script: 'true' } },
      outputVariables: [{ name: 'X', type: 'String', value: 'X' }],
    });
    expect(Object.keys(specOfOptions(SHELL_SUGAR, options))).toEqual([
      'shell',
      'onDelegate',
      'source',
      'environmentVariables',
      'outputVariables',
      'delegateSelectors',
    ]);
  });

  it('reads the spec back into the options that write it, leaving out values equal to their default', () => {
    expect(optionsOfSpec(SHELL_SUGAR, specOfOptions(SHELL_SUGAR, options))).toEqual(options);
    expect(optionsOfSpec(SHELL_SUGAR, specOfOptions(SHELL_SUGAR, { script: 'true' }))).toEqual({ script: 'true' });
  });

  it('reads outputs back as names when each reads its own variable, else as { name: value }', () => {
    const mapped = { script: 'true', outputs: { VERSION: 'APP_VERSION', TAG: 'TAG' } };
    expect(optionsOfSpec(SHELL_SUGAR, specOfOptions(SHELL_SUGAR, mapped))).toEqual(mapped);
    const spec = specOfOptions(SHELL_SUGAR, { script: 'true' });
    // A Secret or a Number output has no shell() form: the catalogue builder takes it.
    expect(
      optionsOfSpec(SHELL_SUGAR, { ...spec, outputVariables: [{ name: 'S', type: 'Secret', value: 'S' }] }),
    ).toBeUndefined();
  });

  it('reads nothing back from a spec no options write: another source, a field no option names, a null', () => {
    const spec = specOfOptions(SHELL_SUGAR, { script: 'true' });
    expect(
      optionsOfSpec(SHELL_SUGAR, { ...spec, source: { type: 'Harness', spec: { file: 'a.sh' } } }),
    ).toBeUndefined();
    expect(optionsOfSpec(SHELL_SUGAR, { ...spec, includeInfraSelectors: true })).toBeUndefined();
    expect(optionsOfSpec(SHELL_SUGAR, { ...spec, shell: null })).toBeUndefined();
    expect(optionsOfSpec(SHELL_SUGAR, { shell: 'Bash' })).toBeUndefined();
    expect(optionsOfSpec(SHELL_SUGAR, { ...spec, environmentVariables: [{ value: 'no name' }] })).toBeUndefined();
    expect(optionsOfSpec(SHELL_SUGAR, '<+input>')).toBeUndefined();
  });
});

describe("a catalogue builder's declaration", () => {
  it('fills its defaults when left out, and import leaves out a value equal to its default', () => {
    const built = pipewright.harnessApproval({
      identifier: 'a',
      approvalMessage: 'ok?',
      approvers: { userGroups: ['g'], minimumCount: 1, disallowPipelineExecutor: false },
    });
    expect(built.toNode().body).toMatchObject({ spec: { includePipelineExecutionHistory: true } });
    const spec = { approvalMessage: 'ok?', includePipelineExecutionHistory: true, extra: 1 };
    expect(catalogStepOptions('HarnessApproval', spec, HARNESS_APPROVAL_SUGAR.defaults)).toEqual({
      approvalMessage: 'ok?',
      spec: { extra: 1 },
    });
    expect(
      catalogStepOptions(
        'HarnessApproval',
        { ...spec, includePipelineExecutionHistory: false },
        HARNESS_APPROVAL_SUGAR.defaults,
      ),
    ).toEqual({
      approvalMessage: 'ok?',
      includePipelineExecutionHistory: false,
      spec: { extra: 1 },
    });
  });

  it('is what import writes: the default left out of the call', () => {
    const step = (includePipelineExecutionHistory: boolean) => ({
      step: {
        type: 'HarnessApproval',
        name: 'a',
        identifier: 'a',
        timeout: '1d',
        spec: {
          approvalMessage: 'ok?',
          includePipelineExecutionHistory,
          approvers: { userGroups: ['g'], minimumCount: 1, disallowPipelineExecutor: false },
          approverInputs: [],
        },
      },
    });
    const text = (include: boolean) =>
      generateModule({
        kind: 'pipeline',
        source: 'x.yaml',
        document: {
          pipeline: {
            name: 'p',
            identifier: 'p',
            projectIdentifier: 'x',
            orgIdentifier: 'default',
            stages: [
              {
                stage: {
                  name: 's',
                  identifier: 's',
                  type: 'Approval',
                  spec: { execution: { steps: [step(include)] } },
                },
              },
            ],
          },
        },
      }).text;
    expect(text(true)).toContain('harnessApproval(');
    expect(text(true)).not.toContain('includePipelineExecutionHistory');
    expect(text(false)).toContain('includePipelineExecutionHistory: false');
  });
});

describe('the step families the placement rule knows', () => {
  it('name step and stage types the catalogue knows, each family apart from the others', () => {
    const families = [CONTAINER_STEP_TYPES, DEPLOY_STEP_TYPES, APPROVAL_STEP_TYPES];
    expect(families.flat().filter((type) => !STEP_TYPES.includes(type))).toEqual([]);
    expect(new Set(families.flat()).size).toBe(families.flat().length);
    expect(DELEGATE_STAGE_TYPES.filter((type) => !STAGE_TYPES.includes(type))).toEqual([]);
    expect(DELEGATE_STAGE_TYPES).not.toContain('CI');
  });
});

describe("ci() and pipelineStage()'s declarations", () => {
  it("write `runtime: 'Cloud'` as the platform's runtime, and read it back as the bare type", () => {
    const spec = specOfOptions(CI_SUGAR, {
      cloneCodebase: true,
      runtime: 'Cloud',
      platform: { os: 'Linux', arch: 'Amd64' },
    });
    expect(spec).toEqual({
      cloneCodebase: true,
      platform: { os: 'Linux', arch: 'Amd64' },
      runtime: { type: 'Cloud', spec: {} },
    });
    expect(Object.keys(spec)).toEqual(['cloneCodebase', 'platform', 'runtime']);
    expect(optionsOfSpec(CI_SUGAR, spec)).toEqual({
      cloneCodebase: true,
      platform: { os: 'Linux', arch: 'Amd64' },
      runtime: 'Cloud',
    });
    const full = { type: 'Cloud', spec: { size: 'large' } };
    expect(optionsOfSpec(CI_SUGAR, { runtime: full })).toEqual({ runtime: full });
    // A field ci() has no option for: a more general builder writes the stage.
    expect(optionsOfSpec(CI_SUGAR, { cloneCodebase: true, slsa_provenance: { enabled: false } })).toBeUndefined();
  });

  it("write a Pipeline stage's outputs as the platform's list, and read them back by name", () => {
    const spec = specOfOptions(PIPELINE_STAGE_SUGAR, {
      pipeline: 'child',
      project: 'p',
      org: 'o',
      outputs: { image: 'x' },
    });
    expect(Object.keys(spec)).toEqual(['org', 'pipeline', 'project', 'outputs']);
    expect(spec.outputs).toEqual([{ name: 'image', value: 'x' }]);
    expect(optionsOfSpec(PIPELINE_STAGE_SUGAR, spec)).toEqual({
      org: 'o',
      pipeline: 'child',
      project: 'p',
      outputs: { image: 'x' },
    });
    expect(
      optionsOfSpec(PIPELINE_STAGE_SUGAR, { ...spec, outputs: [{ name: 'image', value: 'x', type: 'String' }] }),
    ).toBeUndefined();
  });
});
