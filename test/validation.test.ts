import { describe, expect, it } from 'vitest';
import { buildAndValidate, type FoundResource } from '../src/compile/build-documents.js';
import { validateDocument } from '../src/check/check-document.js';
import { expressionProblem } from '../src/check/rules.js';
import {
  connectors,
  deployment,
  input,
  pipeline,
  project,
  shell,
  stage,
  step,
  stepGroup,
  type AnyResource,
} from 'pipewright';

const found = (...resources: AnyResource[]): FoundResource[] =>
  resources.map((resource, index) => ({ resource, file: 'test/validation.test.ts', exportName: `r${index}` }));

/** Compiles resources in memory and returns `subject: message` lines of the errors. */
const errorsOf = (...resources: AnyResource[]) =>
  buildAndValidate(found(...resources)).diagnostics.map((d) => `${d.subject}: ${d.message}`);

const k8s = (identifier = 'prod') =>
  deployment({ identifier, service: 's', environment: 'e', infrastructure: { connector: 'c', namespace: 'n' } });
const echo = (identifier = 'echo', extra: Partial<Parameters<typeof shell>[0]> = {}) =>
  shell({ identifier, script: 'echo hi', ...extra });
const valid = () => pipeline({ identifier: 'deploy', project: 'web' }).stage(k8s()).step(echo());

describe('a valid pipeline', () => {
  it('has no diagnostics', () => {
    expect(errorsOf(valid())).toEqual([]);
  });
});

describe('identifiers', () => {
  it('rejects an invalid step identifier', () => {
    expect(errorsOf(valid().step(echo('bad-id')))).toEqual([
      'pipeline "deploy" > stage "prod" > step "bad-id": identifier "bad-id" is not a valid identifier: start with a letter or _, then letters, digits or _ (at most 128 characters)',
    ]);
  });

  it('rejects identifiers longer than 128 characters and ones starting with a digit', () => {
    // The name defaults to the identifier, and names are limited to 128 characters too: both are reported.
    expect(
      errorsOf(
        pipeline({ identifier: `a${'b'.repeat(128)}`, project: 'web' })
          .stage(k8s())
          .step(echo()),
      ).filter((e) => / identifier "/.test(e)),
    ).toHaveLength(1);
    expect(errorsOf(pipeline({ identifier: '1st', project: 'web' }).stage(k8s()).step(echo()))).toHaveLength(1);
    expect(
      errorsOf(
        pipeline({ identifier: `_a${'b'.repeat(126)}`, project: 'web' })
          .stage(k8s())
          .step(echo()),
      ),
    ).toEqual([]);
  });

  it('rejects a duplicate step identifier within a stage', () => {
    expect(errorsOf(valid().step(echo('echo')))).toEqual([
      'pipeline "deploy" > stage "prod" > step "echo": step identifier "echo" is used twice in execution.steps: steps[0] and steps[1]',
    ]);
  });

  it('allows the same step identifier in two stages', () => {
    expect(errorsOf(valid().stage(k8s('qa')).step(echo('echo')))).toEqual([]);
  });

  it('rejects a duplicate stage identifier within a pipeline', () => {
    expect(errorsOf(valid().stage(k8s('prod')).step(echo()))).toEqual([
      'pipeline "deploy" > stage "prod": stage identifier "prod" is used twice in this pipeline: stages[0] and stages[1]',
    ]);
  });

  // As the platform counts them (by fully qualified name): its own SSH and Elastigroup samples do this.
  it('allows the same identifier in steps and in rollbackSteps, and for a step group and a step inside it', () => {
    expect(
      errorsOf(pipeline({ identifier: 'd', project: 'web' }).stage(k8s().step(echo('x')).rollbackStep(echo('x')))),
    ).toEqual([]);
    expect(
      errorsOf(
        pipeline({ identifier: 'd', project: 'web' }).stage(k8s().step(stepGroup({ identifier: 'g' }).step(echo('g')))),
      ),
    ).toEqual([]);
  });

  it('still checks rollbackSteps and step groups each on their own, naming both places', () => {
    expect(
      errorsOf(
        pipeline({ identifier: 'd', project: 'web' }).stage(
          k8s().step(echo('a')).rollbackStep(echo('x')).rollbackStep(echo('x')),
        ),
      ),
    ).toEqual([
      'pipeline "d" > stage "prod" > step "x": step identifier "x" is used twice in execution.rollbackSteps: rollbackSteps[0] and rollbackSteps[1]',
    ]);
    expect(
      errorsOf(
        pipeline({ identifier: 'd', project: 'web' }).stage(
          k8s().step(stepGroup({ identifier: 'g' }).step(echo('y')).step(echo('y'))),
        ),
      ),
    ).toEqual([
      'pipeline "d" > stage "prod" > stepGroup "g" > step "y": step identifier "y" is used twice in the steps of step group "g": steps[0] and steps[1]',
    ]);
  });
});

describe('durations', () => {
  // The platform schema's own pattern: seconds need two digits, units in any order, a space between parts, empty allowed.
  it.each(['10m', '1h30m', '1h 30m', '1d', '2w', '30s', '1m30s', '1h', '1m1h', '', '<+input>'])(
    'accepts %j',
    (timeout) => {
      expect(errorsOf(valid().step(echo('t', { timeout })))).toEqual([]);
    },
  );

  it.each(['10x', '10', 'm', '10 m', '5s', '0m', '500ms', '<+input>.executionInput()'])('rejects %j', (timeout) => {
    expect(errorsOf(valid().step(echo('t', { timeout })))).toEqual([
      `pipeline "deploy" > stage "prod" > step "t": timeout ${JSON.stringify(timeout)} is not a duration (e.g. 10m, 1h30m, 1d)`,
    ]);
  });
});

describe('names', () => {
  // The platform schema's name pattern: letters, digits, spaces, -, _ and ., at most 128 characters.
  it.each(['Deploy to prod', 'build-1.2_x', '9 lives', '.hidden', 'a'.repeat(128)])('accepts %j', (name) => {
    expect(errorsOf(valid().step(echo('t', { name })))).toEqual([]);
  });

  it.each(['build: api', 'a & b', 'x (y)', 'a/b', 'a'.repeat(129), ''])('rejects %j', (name) => {
    expect(errorsOf(valid().step(echo('t', { name })))).toEqual([
      `pipeline "deploy" > stage "prod" > step "t": name ${JSON.stringify(name)} is not a name the platform accepts: letters, digits, spaces, -, _ and . (at most 128 characters)`,
    ]);
  });
});

describe('expressions', () => {
  it('rejects an unclosed expression', () => {
    expect(errorsOf(valid().step(echo('x', { script: 'echo <+pipeline.name' })))).toEqual([
      'pipeline "deploy" > stage "prod" > step "x": spec.source.spec.script "echo <+pipeline.name" has an unclosed expression: 1 "<+" without a closing ">"',
    ]);
  });

  it('accepts nested expressions and quoted ">" inside them', () => {
    expect(expressionProblem('<+<+pipeline.name>.concat("->")>')).toBeUndefined();
    expect(expressionProblem('a <+x> b <+y.z>')).toBeUndefined();
    expect(expressionProblem('echo "a > b"')).toBeUndefined();
  });

  it('rejects an empty expression and an unclosed quote', () => {
    expect(expressionProblem('<+>')).toBe('has an empty expression "<+>"');
    expect(expressionProblem('<+pipeline.name.concat("x)>')).toBe('has an expression with an unclosed quote');
  });
});

describe('schema', () => {
  it('names the allowed values of an enum, with a suggestion', () => {
    const diagnostics = buildAndValidate(
      found(valid().step(echo('ps', { shell: 'Powershell' as 'PowerShell' }))),
    ).diagnostics;
    expect(diagnostics.map((d) => [d.message, d.hint])).toEqual([
      ['spec.shell "Powershell" is not one of Bash, PowerShell', 'did you mean "PowerShell"?'],
    ]);
  });

  it('reports a missing required field', () => {
    expect(
      validateDocument('pipeline', {
        pipeline: {
          name: 'x',
          identifier: 'x',
          orgIdentifier: 'default',
          stages: [{ stage: { name: 's', identifier: 's', type: 'Custom', spec: { execution: { steps: [] } } } }],
        },
      }).map((d) => d.message),
    ).toEqual([
      'projectIdentifier is required (expected string)',
      // The schema's ExecutionElementConfig: `steps` has `minItems: 1`.
      'spec.execution.steps: a step list needs at least one step',
    ]);
  });

  it('requires at least one stage', () => {
    expect(errorsOf(pipeline({ identifier: 'empty', project: 'web' }))).toEqual([
      'pipeline "empty": stages: a pipeline needs at least one stage',
    ]);
  });

  it('rejects a project colour that is not #RRGGBB', () => {
    expect(errorsOf(project({ identifier: 'p', color: 'blue' }))).toEqual([
      'project "p": color "blue" is not a hex colour like #0063F7',
    ]);
  });

  it('passes unknown step types and extra fields through untouched', () => {
    const custom = step({ identifier: 'x', type: 'MyCompanyStep', spec: { anything: [1, { deep: true }] } });
    const result = buildAndValidate(
      found(
        pipeline({ identifier: 'p', project: 'web' }).stage(
          stage({ identifier: 's', type: 'MyStage', spec: { extra: 1 } }).step(custom),
        ),
      ),
    );
    expect(result.diagnostics).toEqual([]);
    expect((result.documents[0]!.document as any).pipeline.stages[0].stage.spec).toEqual({
      extra: 1,
      execution: {
        steps: [
          { step: { type: 'MyCompanyStep', name: 'x', identifier: 'x', spec: { anything: [1, { deep: true }] } } },
        ],
      },
    });
  });

  it('checks the steps of a stage type it does not model', () => {
    const unknownStage = pipeline({ identifier: 'p', project: 'web' })
      .stage(stage({ identifier: 's', type: 'MyStage' }))
      .step(shell({ identifier: 'two bad', script: 'x', timeout: '10x' }));
    expect(errorsOf(unknownStage)).toEqual([
      'pipeline "p" > stage "s" > step "two bad": identifier "two bad" is not a valid identifier: start with a letter or _, then letters, digits or _ (at most 128 characters)',
      'pipeline "p" > stage "s" > step "two bad": timeout "10x" is not a duration (e.g. 10m, 1h30m, 1d)',
    ]);
  });

  it('flags a type one edit away from a known type as a typo', () => {
    const result = buildAndValidate(found(valid().step(step({ identifier: 'x', type: 'ShelScript', spec: {} }))));
    expect(result.diagnostics.map((d) => [d.message, d.hint])).toEqual([
      ['unknown step type "ShelScript"', 'did you mean "ShellScript"?'],
    ]);
  });
});

describe('references between resources', () => {
  it('accepts a pipeline whose project builder is compiled too', () => {
    const web = project({ identifier: 'web' });
    expect(errorsOf(web, pipeline({ identifier: 'd', project: web }).stage(k8s()).step(echo()))).toEqual([]);
  });

  it('rejects a pipeline whose project builder is not compiled', () => {
    const web = project({ identifier: 'web' });
    const diagnostics = buildAndValidate(
      found(pipeline({ identifier: 'd', project: web }).stage(k8s()).step(echo())),
    ).diagnostics;
    expect(diagnostics.map((d) => d.message)).toEqual([
      'references project "web" in org default, which is not among the compiled resources',
    ]);
    expect(diagnostics[0]!.hint).toMatch(
      /^export it from a compiled file \(defined at test\/validation\.test\.ts:\d+:\d+\)/,
    );
  });

  it('accepts a project given by identifier without compiling it', () => {
    expect(errorsOf(pipeline({ identifier: 'd', project: 'existing' }).stage(k8s()).step(echo()))).toEqual([]);
  });

  it('rejects a connector builder that is not compiled', () => {
    const hub = connectors.dockerRegistry({ identifier: 'hub', project: 'web' });
    const p = pipeline({ identifier: 'd', project: 'web' }).stage(
      deployment({
        identifier: 's',
        service: 's',
        environment: 'e',
        infrastructure: { connector: hub, namespace: 'n' },
      }).step(echo()),
    );
    expect(errorsOf(p)).toEqual([
      'pipeline "d" > stage "s": references connector "hub" in project default/web, which is not among the compiled resources',
    ]);
    expect(errorsOf(hub, p)).toEqual([]);
  });

  it('rejects a connector of another project', () => {
    const hub = connectors.dockerRegistry({ identifier: 'hub', project: 'other' });
    const p = pipeline({ identifier: 'd', project: 'web' }).stage(
      deployment({
        identifier: 's',
        service: input(),
        environment: 'e',
        infrastructure: { connector: hub, namespace: 'n' },
      }).step(echo()),
    );
    expect(errorsOf(hub, p)).toEqual([
      'pipeline "d" > stage "s": uses connector "hub" in project default/other, which pipeline "d" in project default/web cannot see',
    ]);
  });

  it('rejects two resources with the same kind, scope and identifier', () => {
    expect(errorsOf(project({ identifier: 'web' }), project({ identifier: 'web' }))).toEqual([
      'project "web": project "web" in org default is defined twice',
    ]);
    expect(errorsOf(project({ identifier: 'web' }), project({ identifier: 'web', org: 'other' }))).toEqual([]);
  });
});

describe('locations', () => {
  it('points each diagnostic at the builder call that made the offending node', () => {
    const bad = shell({ identifier: 't', script: 'x', timeout: '10x' });
    // The builder was made two lines above this one.
    const line = Number(new Error().stack!.split('\n')[1]!.match(/:(\d+):\d+\)?$/)![1]) - 2;
    const [diagnostic] = buildAndValidate(found(valid().step(bad))).diagnostics;
    // A call is a point: no end.
    expect(diagnostic!.location).toEqual({ file: 'test/validation.test.ts', line, column: expect.any(Number) });
    expect(diagnostic!.path).toEqual([
      'pipeline',
      'stages',
      0,
      'stage',
      'spec',
      'execution',
      'steps',
      1,
      'step',
      'timeout',
    ]);
  });
});
