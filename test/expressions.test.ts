import { describe, expect, it } from 'vitest';
import { expr, input } from 'pipewright';
import { isExpr } from '../src/dsl/expr.js';

describe('input()', () => {
  it('is the bare runtime-input marker', () => {
    expect(String(input())).toBe('<+input>');
  });

  it('chains every method the platform accepts, in call order', () => {
    expect(String(input().default('dev').allowedValues('dev', 'qa', 'prod'))).toBe(
      '<+input>.default(dev).allowedValues(dev,qa,prod)',
    );
    expect(String(input().selectOneFrom('a', 'b'))).toBe('<+input>.selectOneFrom(a,b)');
    expect(String(input().selectManyFrom('a', 'b'))).toBe('<+input>.selectManyFrom(a,b)');
    expect(String(input().regex(/^v\d+$/))).toBe('<+input>.regex(^v\\d+$)');
    expect(String(input().executionInput())).toBe('<+input>.executionInput()');
    expect(String(input().default(3))).toBe('<+input>.default(3)');
  });

  it('returns a new input from each method, leaving the shared one as it was', () => {
    const env = input().allowedValues('dev', 'prod');
    const withDefault = env.default('dev');
    expect(String(env)).toBe('<+input>.allowedValues(dev,prod)');
    expect(String(withDefault)).toBe('<+input>.allowedValues(dev,prod).default(dev)');
    expect(Object.isFrozen(env)).toBe(true);
  });

  it('rejects values that would break the marker syntax', () => {
    expect(() => input().allowedValues('a,b')).toThrow('values cannot contain ",", "(" or ")"');
    expect(() => input().default('f(x)')).toThrow(/cannot contain/);
    expect(() => input().allowedValues()).toThrow('input().allowedValues() needs at least one value');
    expect(() => input().regex('')).toThrow('needs a non-empty pattern');
  });
});

describe('expr', () => {
  it('names the platform expressions', () => {
    expect(String(expr.pipeline.sequenceId)).toBe('<+pipeline.sequenceId>');
    expect(String(expr.infra.key)).toBe('<+INFRA_KEY>');
    expect(String(expr.pipeline.variable('region'))).toBe('<+pipeline.variables.region>');
    expect(String(expr.raw('stage.spec.env.name'))).toBe('<+stage.spec.env.name>');
  });

  it('quotes secret names as the platform expects', () => {
    expect(String(expr.secret('docker_pw'))).toBe('<+secrets.getValue("docker_pw")>');
  });

  it('joins text and expressions with the tagged template', () => {
    const name = expr`release-${expr.infra.key}`;
    expect(isExpr(name)).toBe(true);
    expect(String(name)).toBe('release-<+INFRA_KEY>');
    expect(JSON.stringify({ name })).toBe('{"name":"release-<+INFRA_KEY>"}');
    expect(String(expr`v${1}.${expr.pipeline.sequenceId}-${true}`)).toBe('v1.<+pipeline.sequenceId>-true');
  });
});

describe('the scopes a run is in', () => {
  it('names the project, org, account and execution roots as the platform reads them', () => {
    expect(
      [
        expr.project.identifier,
        expr.project.name,
        expr.project.orgIdentifier,
        expr.org.identifier,
        expr.org.name,
        expr.account.identifier,
        expr.account.name,
        expr.execution.stepOutput('build', 'VERSION'),
      ].map((e) => e.text),
    ).toEqual([
      '<+project.identifier>',
      '<+project.name>',
      '<+project.orgIdentifier>',
      '<+org.identifier>',
      '<+org.name>',
      '<+account.identifier>',
      '<+account.name>',
      '<+execution.steps.build.output.outputVariables.VERSION>',
    ]);
  });
});
