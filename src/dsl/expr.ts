import type { ExpressionText } from '../schema/common.js';

/**
 * A `<+...>` expression, or a string that embeds some. Usable wherever a string value goes;
 * it serialises to its text.
 */
const EXPR_BRAND = Symbol.for('pipewright.expr');

export class Expr {
  readonly text: string;
  get [EXPR_BRAND](): true {
    return true;
  }
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

/** True for expressions from any copy of pipewright. */
export const isExpr = (value: unknown): value is Expr =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[EXPR_BRAND] === true;

/** A plain string, or an expression built with `expr`/`input()`. */
export type Value = string | Expr;

/**
 * A value the platform also takes as a `<+...>` expression: an `expr`, an `input()`, or text holding `<+`.
 * The one type of such fields (booleans, numbers, enums): `Expressive<boolean>` takes `true` and
 * `'<+pipeline.variables.dryRun>'` but not `'maybe'`.
 */
export type Expressive<T> = T | Expr | ExpressionText;

export const valueText = (value: Value | number | boolean): string => String(value);

/** The text of an option that may be missing: undefined stays undefined (never the text "undefined"). */
export const optionalText = (value: Value | number | boolean | undefined): string | undefined =>
  value === undefined || value === null ? undefined : String(value);

const ref = (path: string): Expr => new Expr(`<+${path}>`);

/** `expr\`release-${expr.infra.key}\`` joins text and expressions into one value. */
function template(strings: TemplateStringsArray, ...values: Array<Value | number | boolean>): Expr {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += valueText(value) + (strings[index + 1] ?? '');
  });
  return new Expr(text);
}

const variablesOf = (scope: string) => (name: string) => ref(`${scope}.variables.${name}`);

/**
 * The platform's `<+...>` expressions: as a tagged template, `expr` joins text and expressions into one value,
 * and its helpers name the common ones (`expr.pipeline.sequenceId`, `expr.secret('name')`, `expr.raw('any.path')`).
 *
 * @example
 * ```ts
 * shell({ identifier: 'login', script: expr`docker login -p ${expr.secret('registry_token')} build ${expr.pipeline.sequenceId}` })
 * ```
 */
export const expr = Object.assign(template, {
  /** Any expression by its path: `expr.raw('pipeline.name')` is `<+pipeline.name>`. */
  raw: ref,
  /** `<+secrets.getValue("name")>`: a secret reference; never put secret values in code. */
  secret: (name: string) => ref(`secrets.getValue(${JSON.stringify(name)})`),
  pipeline: {
    name: ref('pipeline.name'),
    identifier: ref('pipeline.identifier'),
    sequenceId: ref('pipeline.sequenceId'),
    executionId: ref('pipeline.executionId'),
    startTs: ref('pipeline.startTs'),
    triggeredBy: { name: ref('pipeline.triggeredBy.name'), email: ref('pipeline.triggeredBy.email') },
    variable: variablesOf('pipeline'),
  },
  stage: {
    name: ref('stage.name'),
    identifier: ref('stage.identifier'),
    variable: variablesOf('stage'),
  },
  // The scopes a run is in: the platform binds `project` and `org` to their records (ProjectFunctor and its org
  // twin in harness-core's pms expressions), `account` to the account's (docs/types.md cites the fields).
  project: {
    identifier: ref('project.identifier'),
    name: ref('project.name'),
    description: ref('project.description'),
    orgIdentifier: ref('project.orgIdentifier'),
  },
  org: { identifier: ref('org.identifier'), name: ref('org.name'), description: ref('org.description') },
  account: { identifier: ref('account.identifier'), name: ref('account.name') },
  execution: {
    /** `<+execution.steps.STEP.output.outputVariables.NAME>`: an output of a step of the stage that runs. */
    stepOutput: (step: string, name: string) => ref(`execution.steps.${step}.output.outputVariables.${name}`),
  },
  service: { name: ref('service.name'), identifier: ref('service.identifier') },
  env: { name: ref('env.name'), identifier: ref('env.identifier'), type: ref('env.type') },
  infra: {
    /** `<+INFRA_KEY>`: a key unique to the infrastructure, used in release names. */
    key: ref('INFRA_KEY'),
    namespace: ref('infra.namespace'),
    releaseName: ref('infra.releaseName'),
  },
  artifact: { image: ref('artifact.image'), tag: ref('artifact.tag') },
  codebase: { branch: ref('codebase.branch'), commitSha: ref('codebase.commitSha') },
  trigger: { branch: ref('trigger.branch'), event: ref('trigger.event') },
});
