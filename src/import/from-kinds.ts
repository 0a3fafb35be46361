import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { call, lit, obj, type Code } from './code.js';
import type { z } from 'zod';
import { documentPartSchema } from '../schema/catalog-schemas.js';
import { ENVIRONMENT_TYPES } from '../schema/environment.js';
import { nameOption, NotExpressible, optional, tagsOption, variablesOption, wire } from './options.js';
import { asDocument, choose, type Candidate } from './verify.js';
import { newContext, type ImportContext } from './lifted.js';
import { linking, type Link } from './links.js';
import { isRecord } from '../core/is-record.js';
import type { PublishFlags } from '../ir/node.js';

/**
 * The kinds beside pipelines as builder calls (`service()`, `template.stage()`, `trigger.cron()`, ...), each
 * kept only when it reproduces the document exactly, else `raw.<kind>()`.
 */
type Node = Record<string, unknown>;
const node = (value: unknown): Node => (isRecord(value) ? value : {});

/** The values a typed option takes (an enum of the schema): a document outside them keeps to `raw`, which type-checks. */
const enumValues = (schema: z.ZodType): readonly unknown[] =>
  (schema as unknown as { options?: readonly unknown[] }).options ?? [];
const SERVICE_TYPES = enumValues((documentPartSchema('serviceDefinition') as z.ZodObject).shape.type as z.ZodType);
const INFRASTRUCTURE_TYPES = enumValues((documentPartSchema('infrastructure') as z.ZodObject).shape.type as z.ZodType);
/** A typed option's value: absent, or one the option's type allows. */
const typedAs = (raw: unknown, allowed: readonly unknown[]): Code | undefined => {
  if (raw !== undefined && !allowed.includes(raw)) throw new NotExpressible('not a value the typed option takes');
  return optional(raw);
};

const COMMON_FIELDS = ['identifier', 'name', 'description', 'tags', 'orgIdentifier', 'projectIdentifier'];

/** The body's fields no option of the builder names, for its `otherFields`. */
function otherFields(body: Node, named: readonly string[]): Code | undefined {
  const rest = Object.entries(body).filter(([key]) => !COMMON_FIELDS.includes(key) && !named.includes(key));
  return rest.length ? wire(Object.fromEntries(rest)) : undefined;
}

/** A reference field: the referenced module's builder when `link` finds it, else its text. */
const linked = (link: Link, kind: ResourceKind, text: unknown, parent?: unknown): Code | undefined =>
  link(kind, text, parent) ?? optional(text);

/** Identity, display fields and scope, as every builder of these kinds takes them (the project as its builder when imported). */
function scoped(body: Node, link: Link): Record<string, Code | undefined> {
  return {
    identifier: lit(body.identifier as string),
    name: nameOption(body),
    description: optional(body.description),
    tags: tagsOption(body.tags),
    org: optional(body.orgIdentifier),
    project: linked(link, 'project', body.projectIdentifier),
    account: body.orgIdentifier === undefined && body.projectIdentifier === undefined ? lit(true) : undefined,
  };
}

/** The first candidate that reproduces the document, else the document verbatim (with `rawOptions` beside it). */
const exactOr = (
  kind: ResourceKind,
  document: Node,
  candidates: (link: Link) => readonly Candidate[],
  context: ImportContext,
  rawOptions?: Code,
): Code =>
  choose(
    document,
    linking(bodyOf(kind, document), context, candidates),
    document,
    asDocument,
    () => call(`raw.${kind}`, [wire(document), ...(rawOptions ? [rawOptions] : [])]),
    context.demoted,
  );

const bodyOf = (kind: ResourceKind, document: Node): Node => node(document[kindRow(kind).rootKey]);

export function serviceCode(document: Node, context: ImportContext = newContext()): Code {
  const body = bodyOf('service', document);
  const definition = node(body.serviceDefinition);
  return exactOr(
    'service',
    document,
    (link) => [
      () =>
        call('service', [
          obj({
            ...scoped(body, link),
            deploymentType: typedAs(definition.type, SERVICE_TYPES),
            spec: optional(definition.spec),
            gitOpsEnabled: optional(body.gitOpsEnabled),
            otherFields: otherFields(body, ['serviceDefinition', 'gitOpsEnabled']),
          }),
        ]),
    ],
    context,
  );
}

export function environmentCode(document: Node, context: ImportContext = newContext()): Code {
  const body = bodyOf('environment', document);
  return exactOr(
    'environment',
    document,
    (link) => [
      () =>
        call('environment', [
          obj({
            ...scoped(body, link),
            type: typedAs(body.type, ENVIRONMENT_TYPES),
            variables: variablesOption(body.variables),
            overrides: optional(body.overrides),
            otherFields: otherFields(body, ['type', 'variables', 'overrides']),
          }),
        ]),
    ],
    context,
  );
}

export function infrastructureCode(document: Node, context: ImportContext = newContext()): Code {
  const body = bodyOf('infrastructure', document);
  return exactOr(
    'infrastructure',
    document,
    (link) => [
      () =>
        call('infrastructure', [
          obj({
            ...scoped(body, link),
            environment: linked(link, 'environment', body.environmentRef),
            deploymentType: typedAs(body.deploymentType, SERVICE_TYPES),
            type: typedAs(body.type, INFRASTRUCTURE_TYPES),
            spec: optional(body.spec),
            allowSimultaneousDeployments: optional(body.allowSimultaneousDeployments),
            scopedServices: optional(body.scopedServices),
            otherFields: otherFields(body, [
              'environmentRef',
              'deploymentType',
              'type',
              'spec',
              'allowSimultaneousDeployments',
              'scopedServices',
            ]),
          }),
        ]),
    ],
    context,
  );
}

const TEMPLATE_BUILDERS: Record<string, string> = {
  Step: 'template.step',
  Stage: 'template.stage',
  StepGroup: 'template.stepGroup',
  Pipeline: 'template.pipeline',
};

/**
 * A template version as `template.stage({ ... })` and its kin, else `raw.template(document)`; `flags.stable` (pull:
 * the platform's stable version) is `stable: true` in either, which is not in the YAML, so the document compared
 * stays the same.
 */
export function templateCode(document: Node, context: ImportContext = newContext(), flags?: PublishFlags): Code {
  const body = bodyOf('template', document);
  const builder = TEMPLATE_BUILDERS[String(body.type)];
  const stable = flags?.stable ? lit(true) : undefined;
  return exactOr(
    'template',
    document,
    (link) => [
      () =>
        builder
          ? call(builder, [
              obj({
                ...scoped(body, link),
                versionLabel: optional(body.versionLabel),
                stable,
                spec: optional(body.spec),
                icon: optional(body.icon),
                variables: optional(body.variables),
                otherFields: otherFields(body, ['versionLabel', 'type', 'spec', 'icon', 'variables']),
              }),
            ])
          : undefined,
    ],
    context,
    stable && obj({ stable }),
  );
}

/** A pipeline-owned kind names its project and org as such: it always lives in a project. */
const owned = (body: Node, link: Link) => ({ ...scoped(body, link), account: undefined });

/** Input set references (an overlay's, a trigger's): each as its builder when imported, else its text. */
function inputSetsOption(link: Link, refs: unknown, pipeline: unknown): Code | undefined {
  if (!Array.isArray(refs)) return optional(refs);
  const items = refs.map((text) => link('inputSet', text, pipeline));
  return items.some(Boolean)
    ? { kind: 'array', items: items.map((item, at) => item ?? optional(refs[at])!) }
    : optional(refs);
}

export function inputSetCode(document: Node, context: ImportContext = newContext()): Code {
  const body = bodyOf('inputSet', document);
  const { identifier, ...values } = node(body.pipeline);
  return exactOr(
    'inputSet',
    document,
    (link) => [
      () =>
        call('inputSet', [
          obj({
            ...owned(body, link),
            pipeline: linked(link, 'pipeline', identifier),
            values: Object.keys(values).length ? wire(values) : undefined,
            otherFields: otherFields(body, ['pipeline']),
          }),
        ]),
    ],
    context,
  );
}

export function overlayInputSetCode(document: Node, context: ImportContext = newContext()): Code {
  const body = bodyOf('overlayInputSet', document);
  return exactOr(
    'overlayInputSet',
    document,
    (link) => [
      () =>
        call('overlayInputSet', [
          obj({
            ...owned(body, link),
            pipeline: linked(link, 'pipeline', body.pipelineIdentifier),
            inputSets: inputSetsOption(link, body.inputSetReferences, body.pipelineIdentifier),
            otherFields: otherFields(body, ['pipelineIdentifier', 'inputSetReferences']),
          }),
        ]),
    ],
    context,
  );
}

export function triggerCode(document: Node, context: ImportContext = newContext()): Code {
  const body = bodyOf('trigger', document);
  const source = node(body.source);
  const spec = node(source.spec);
  const inner = node(spec.spec);
  const common = (link: Link) => ({
    ...owned(body, link),
    pipeline: linked(link, 'pipeline', body.pipelineIdentifier),
    enabled: optional(body.enabled),
    inputYaml: optional(body.inputYaml),
    inputSets: inputSetsOption(link, body.inputSetRefs, body.pipelineIdentifier),
    pipelineBranchName: optional(body.pipelineBranchName),
    stagesToExecute: optional(body.stagesToExecute),
    otherFields: otherFields(body, [
      'pipelineIdentifier',
      'enabled',
      'inputYaml',
      'inputSetRefs',
      'pipelineBranchName',
      'stagesToExecute',
      'source',
    ]),
  });
  return exactOr(
    'trigger',
    document,
    (link) => [
      () =>
        source.type === 'Scheduled' && spec.type === 'Cron'
          ? call('trigger.cron', [
              obj({
                ...common(link),
                expression: optional(inner.expression),
                cronType: optional(inner.type),
                timezone: optional(inner.timezone),
              }),
            ])
          : undefined,
      () =>
        source.type === 'Webhook'
          ? call('trigger.webhook', [
              obj({
                ...common(link),
                provider: optional(spec.type),
                event: optional(inner.type),
                spec: inner.type === undefined ? optional(spec.spec) : optional(inner.spec),
              }),
            ])
          : undefined,
      () =>
        source.type === 'Artifact'
          ? call('trigger.artifact', [
              obj({ ...common(link), artifactType: optional(spec.type), spec: optional(spec.spec) }),
            ])
          : undefined,
      () => call('trigger', [obj({ ...common(link), source: optional(body.source) })]),
    ],
    context,
  );
}
