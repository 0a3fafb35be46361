import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as pipewright from 'pipewright';
import {
  catalog,
  custom,
  deployment,
  k8sBGSwapServices,
  k8sRollingDeploy,
  parallel,
  pipeline,
  shell,
  stepGroup,
  terraformPlan,
  type AnyResource,
} from 'pipewright';
import { buildAndValidate, type FoundResource } from '../src/compile/build-documents.js';
import { groupDiagnostics } from '../src/core/diagnostics.js';
import { validateDocument } from '../src/check/check-document.js';

const found = (...resources: AnyResource[]): FoundResource[] =>
  resources.map((resource, index) => ({ resource, file: 'test/catalog.test.ts', exportName: `r${index}` }));
const problems = (...resources: AnyResource[]) =>
  buildAndValidate(found(...resources)).diagnostics.map(
    (d) => `${d.code}: ${d.message}${d.hint ? ` (${d.hint})` : ''}`,
  );
const REFERENCE = join(import.meta.dirname, '..', '..', 'shared', 'reference', 'harness-schema');
const infra = { connector: 'cluster', namespace: 'web' };
const deploy = () => deployment({ identifier: 'prod', service: 's', environment: 'e', infrastructure: infra });

describe('the catalogue', () => {
  it('lists every step and stage type of the platform schema, each with an exported builder', () => {
    expect(catalog.steps.length).toBe(353);
    expect(catalog.stages.map((s) => s.type)).toEqual([
      'Approval',
      'CI',
      'CompositeLoadTest',
      'Custom',
      'DRTest',
      'Deployment',
      'Dynamic',
      'FeatureFlag',
      'IACM',
      'IDP',
      'Pipeline',
      'SecurityTests',
    ]);
    const exported = pipewright as unknown as Record<string, unknown>;
    for (const entry of [...catalog.steps, ...catalog.stages])
      expect(typeof exported[entry.builder], entry.builder).toBe('function');
    const names = catalog.steps.map((s) => s.builder);
    expect(new Set(names).size).toBe(names.length);
  });

  it('names builders after the type with its leading capitals lower-cased', () => {
    const builder = (type: string) => catalog.steps.find((s) => s.type === type)?.builder;
    expect([
      builder('AsgBlueGreenDeploy'),
      builder('TerraformPlan'),
      builder('IACMTerraformPlugin'),
      builder('K8sBGSwapServices'),
    ]).toEqual(['asgBlueGreenDeploy', 'terraformPlan', 'iacmTerraformPlugin', 'k8sBGSwapServices']);
  });

  it("says where each step type may run, as the schema lists each stage type's steps", () => {
    const stages = (type: string) => catalog.steps.find((s) => s.type === type)?.stages;
    expect(stages('K8sRollingDeploy')).toEqual(['Deployment']);
    expect(stages('ShellScript')).not.toContain('CI');
    expect(stages('Run')).toContain('CI');
  });

  it.skipIf(!existsSync(REFERENCE))(
    'matches what scripts/generate-catalog.mjs makes from ../shared/reference (skipped without ../shared)',
    async () => {
      const { generate, GENERATED_FOLDERS } = (await import('../scripts/generate-catalog.mjs')) as {
        generate: () => Record<string, string>;
        GENERATED_FOLDERS: Readonly<Record<string, string>>;
      };
      for (const [name, text] of Object.entries(generate()))
        expect(
          readFileSync(join(import.meta.dirname, '..', GENERATED_FOLDERS[name]!, name), 'utf8') === text,
          `${GENERATED_FOLDERS[name]}/${name} is stale: run node scripts/generate-catalog.mjs`,
        ).toBe(true);
    },
  );
});

describe('catalogue builders', () => {
  it('write the type and the spec fields given, in the order given', () => {
    const doc = pipeline({ identifier: 'p', project: 'web' })
      .stage(deploy().step(k8sBGSwapServices({ identifier: 'swap', delegateSelectors: ['eu'], timeout: '10m' })))
      .toDocument() as any;
    expect(doc.pipeline.stages[0].stage.spec.execution.steps[0]).toEqual({
      step: {
        type: 'K8sBGSwapServices',
        name: 'swap',
        identifier: 'swap',
        spec: { delegateSelectors: ['eu'] },
        timeout: '10m',
      },
    });
  });

  it('check the spec against the platform schema (TerraformPlan needs its provisioner)', () => {
    const p = pipeline({ identifier: 'p', project: 'web' }).stage(
      deploy().step(terraformPlan({ identifier: 'plan', configuration: { command: 'Apply' } } as never)),
    );
    expect(problems(p)).toEqual([
      'missing-field: spec.configuration.configFiles is required (expected object)',
      'missing-field: spec.configuration.secretManagerRef is required (expected string)',
      'missing-field: spec.provisionerIdentifier is required (expected string)',
    ]);
  });
});

describe('builder options are checked at run time too', () => {
  it('reports a misspelt option at the call, with the closest name, instead of dropping it', () => {
    const p = pipeline({ identifier: 'p', project: 'web' }).stage(
      custom({ identifier: 'c' }).step(shell({ identifier: 's', scipt: 'echo hi' } as never)),
    );
    expect(problems(p)).toEqual([
      'unknown-option: shell() has no option "scipt" (did you mean "script"?)',
      'missing-option: shell() needs the option "script" (add script: ... to the shell() call)',
    ]);
  });

  it('never writes undefined as text: deployment({ enviroment }) is an unknown option and a missing one', () => {
    const stage = deployment({ identifier: 'prod', service: 's', enviroment: 'prod', infrastructure: infra } as never);
    const p = pipeline({ identifier: 'p', project: 'web' }).stage(stage.step(k8sRollingDeploy({ identifier: 'r' })));
    expect(JSON.stringify(p.toDocument())).not.toContain('undefined');
    expect(problems(p).slice(0, 2)).toEqual([
      'unknown-option: deployment() has no option "enviroment" (did you mean "environment"?)',
      'missing-option: deployment() needs the option "environment" (add environment: ... to the deployment() call)',
    ]);
  });

  it('reports a pipeline without a project instead of crashing', () => {
    const p = pipeline({ identifier: 'p' } as never).stage(
      custom({ identifier: 'c' }).step(shell({ identifier: 's', script: 'x' })),
    );
    expect(problems(p)).toContain(
      'missing-option: pipeline() needs the option "project" (add project: ... to the pipeline() call)',
    );
  });

  it('reports a misspelt catalogue step option once, however many pipelines use the step', () => {
    const shared = k8sRollingDeploy({ identifier: 'r', skipDryRn: true } as never);
    const pipelines = [1, 2, 3].map((n) =>
      pipeline({ identifier: `p${n}`, project: 'web' }).stage(deploy().step(shared)),
    );
    // One diagnostic per use, which the output merges into one with the number of uses (src/compile/diagnostics.ts).
    const grouped = groupDiagnostics(buildAndValidate(found(...pipelines)).diagnostics);
    expect(grouped.map((d) => [d.code, d.message, d.hint, d.count])).toEqual([
      ['unknown-option', 'k8sRollingDeploy() has no option "skipDryRn"', 'did you mean "skipDryRun"?', 3],
    ]);
  });

  it('refuses when() on a parallel group of stages instead of losing it', () => {
    const p = pipeline({ identifier: 'p', project: 'web' }).stage(
      parallel(
        custom({ identifier: 'a' }).step(shell({ identifier: 'x', script: 'x' })),
        custom({ identifier: 'b' }).step(shell({ identifier: 'y', script: 'y' })),
        // @ts-expect-error: the types refuse it too; this is what JavaScript callers get
      ).when({ pipelineStatus: 'Success' }),
    );
    expect(problems(p)).toEqual([
      'unknown-option: parallel(...) stages have no when of their own; .when() on the group would be lost (set when on each stage inside parallel(...))',
    ]);
  });
});

describe('step reuse and groups', () => {
  it('withIdentifier() reuses a step under another identifier, and its outputs follow', () => {
    const smoke = shell({ identifier: 'smoke', script: 'curl -f $URL', outputs: ['STATUS'] });
    const again = smoke.withIdentifier('smoke_after');
    expect([again.identifier, again.output('STATUS').text]).toEqual([
      'smoke_after',
      '<+execution.steps.smoke_after.output.outputVariables.STATUS>',
    ]);
    const p = pipeline({ identifier: 'p', project: 'web' }).stage(
      deploy().step(smoke, k8sRollingDeploy({ identifier: 'r' }), again),
    );
    expect(problems(p)).toEqual([]);
  });

  it('withIdentifier() reuses a step group under another identifier: its name follows unless it had its own', () => {
    const phase = stepGroup({ identifier: 'phase', steps: [k8sRollingDeploy({ identifier: 'deploy' })] });
    const named = stepGroup({
      identifier: 'phase',
      name: 'Phase one',
      steps: [k8sRollingDeploy({ identifier: 'deploy' })],
    });
    const doc = pipeline({ identifier: 'p', project: 'web' })
      .stage(
        deploy().step(
          phase,
          phase.withIdentifier('phase_2'),
          named.withIdentifier('phase_3'),
          named.withIdentifier('phase_4', 'Four'),
        ),
      )
      .toDocument() as any;
    const groups = doc.pipeline.stages[0].stage.spec.execution.steps.map((s: any) => [
      s.stepGroup.identifier,
      s.stepGroup.name,
    ]);
    expect(groups).toEqual([
      ['phase', 'phase'],
      ['phase_2', 'phase_2'],
      ['phase_3', 'Phase one'],
      ['phase_4', 'Four'],
    ]);
    // The steps inside are the same steps: only the group's identity changed.
    expect(doc.pipeline.stages[0].stage.spec.execution.steps[1].stepGroup.steps).toEqual(
      doc.pipeline.stages[0].stage.spec.execution.steps[0].stepGroup.steps,
    );
  });

  it('withIdentifier() reuses a stage, steps and all, under another identifier', () => {
    const checks = custom({ identifier: 'checks', name: 'Checks' }).step(
      shell({ identifier: 'lint', script: 'make lint' }),
    );
    const doc = pipeline({ identifier: 'p', project: 'web' })
      .stage(
        checks,
        checks.withIdentifier('checks_eu'),
        checks.withIdentifier('checks_us', 'Checks (us)'),
        deploy().withIdentifier('prod_eu'),
      )
      .toDocument() as any;
    const stages = doc.pipeline.stages.map((s: any) => [
      s.stage.identifier,
      s.stage.name,
      s.stage.spec.execution.steps.length,
    ]);
    expect(stages).toEqual([
      ['checks', 'Checks', 1],
      ['checks_eu', 'Checks', 1],
      ['checks_us', 'Checks (us)', 1],
      ['prod_eu', 'prod_eu', 0],
    ]);
    expect(
      problems(pipeline({ identifier: 'q', project: 'web' }).stage(checks, checks.withIdentifier('checks_2'))),
    ).toEqual([]);
    // Two uses under one identifier are still a duplicate.
    expect(
      problems(pipeline({ identifier: 'r', project: 'web' }).stage(checks, checks.withIdentifier('checks'))),
    ).not.toEqual([]);
  });

  it("stepGroup() writes rollbackSteps, as the platform's canary phases do", () => {
    const group = stepGroup({
      identifier: 'canary',
      steps: [k8sRollingDeploy({ identifier: 'deploy' })],
      rollbackSteps: [k8sRollingDeploy({ identifier: 'deploy_back' })],
    });
    const doc = pipeline({ identifier: 'p', project: 'web' }).stage(deploy().step(group)).toDocument() as any;
    const element = doc.pipeline.stages[0].stage.spec.execution.steps[0].stepGroup;
    expect(element.rollbackSteps.map((s: any) => s.step.identifier)).toEqual(['deploy_back']);
    expect(validateDocument('pipeline', doc)).toEqual([]);
  });
});

describe('connector builders from the catalogue', () => {
  it('build a GitHub connector with its spec fields flat, and check them against the platform schema', () => {
    const github = pipewright.connectors.github({
      identifier: 'gh',
      project: 'web',
      type: 'Account',
      url: 'https://github.com/acme',
      authentication: {
        type: 'Http',
        spec: { type: 'UsernameToken', spec: { username: 'bot', tokenRef: 'gh_token' } },
      },
    });
    const doc = github.toDocument() as any;
    expect(doc.connector).toMatchObject({
      identifier: 'gh',
      type: 'Github',
      spec: { type: 'Account', url: 'https://github.com/acme' },
    });
    expect(problems(github)).toEqual([]);
  });

  it('report a misspelt connector option at the call', () => {
    const cluster = pipewright.connectors.k8sCluster({ identifier: 'k8s', project: 'web', credentail: {} } as never);
    expect(problems(cluster)[0]).toBe(
      'unknown-option: connectors.k8sCluster() has no option "credentail" (did you mean "credential"?)',
    );
  });
});

describe('references across stages and to pipeline variables', () => {
  it('write the platform expressions for a pipeline variable, a stage variable and a step output of another stage', () => {
    const release = pipeline({ identifier: 'release', project: 'web', variables: { version: '1.0' } });
    const probe = shell({ identifier: 'probe', script: 'echo', outputs: ['TAG'] });
    const build = custom({ identifier: 'build', variables: { image: 'web' } }).step(probe);
    expect([release.variable('version').text, build.variable('image').text, build.output(probe, 'TAG').text]).toEqual([
      '<+pipeline.variables.version>',
      '<+pipeline.stages.build.variables.image>',
      '<+pipeline.stages.build.spec.execution.steps.probe.output.outputVariables.TAG>',
    ]);
  });

  it('refuses a stage variable the stage does not declare', () => {
    const build = custom({ identifier: 'build', variables: { image: 'web' } });
    expect(() => build.variable('imgae')).toThrow('stage "build" has no variable "imgae" (it has: image)');
  });
});
