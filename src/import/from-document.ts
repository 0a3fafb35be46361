import { catalog, connectorSpecKeys } from '../catalog/catalog.js';
import { DOCKER_REGISTRY_DEFAULTS } from '../dsl/connector.js';
import { DEFAULT_ORG } from '../dsl/project.js';
import { isRecord } from '../core/is-record.js';
import { lift } from '../ir/lift.js';
import { call, lit, obj, type Code } from './code.js';
import { stageElementCode } from './from-stage.js';
import { childrenAt, newContext, node, type ImportContext, type Node } from './lifted.js';
import {
  nameOption,
  NotExpressible,
  optional,
  otherFieldsChain,
  tagsOption,
  unlessDefault,
  value,
  variablesOption,
  wire,
} from './options.js';
import { asDocument, choose } from './verify.js';
import { linkedTemplate, linking, referThrough, type Link } from './links.js';
import { specOptions } from './from-step.js';

/** Barriers written as names when name and identifier agree. */
const barriersOption = (raw: unknown): Code | undefined =>
  Array.isArray(raw)
    ? {
        kind: 'array',
        items: (raw as Node[]).map((b) =>
          Object.keys(node(b)).length === 2 && b.name === b.identifier ? lit(String(b.identifier)) : wire(b),
        ),
      }
    : optional(raw);

/** The fields of a pipeline that `pipeline()`'s options and `.stage()` write, whatever the candidate. */
const PIPELINE_FIELDS = [
  'identifier',
  'name',
  'projectIdentifier',
  'orgIdentifier',
  'description',
  'tags',
  'template',
  'properties',
  'allowStageExecutions',
  'fixedInputsOnRerun',
  'timeout',
  'delegateSelectors',
  'variables',
  'notificationRules',
  'stages',
];

/** A whole pipeline document as a builder chain, or `raw.pipeline()` when no builder reproduces it. */
export function pipelineCode(document: Node, context: ImportContext = newContext()): Code {
  const body = node(document.pipeline);
  // Keys beside `pipeline` keep lift's root raw, its pipeline node a child (and raw.pipeline() is what is written).
  const root = lift('pipeline', document);
  const lifted = root.kind === 'pipeline' ? root : root.children[0]?.node;
  const stages = lifted ? childrenAt({ node: lifted, element: document }, ['stages']) : [];
  const chain = stages.flatMap((child) => {
    const { stage, steps } = stageElementCode(child, context);
    return [{ method: 'stage', args: [stage] }, ...steps.map((s) => ({ method: 'step', args: [s] }))];
  });
  const properties = node(body.properties);
  const codebase = node(properties.ci).codebase;
  const onlyCodebase =
    isRecord(codebase) && Object.keys(properties).length === 1 && Object.keys(node(properties.ci)).length === 1;
  const flowControl = node(body.flowControl);
  const onlyBarriers = Object.keys(flowControl).length === 1 && Array.isArray(flowControl.barriers);
  // A pipeline made from a template: `templateRef` as the template's builder when it is imported in that version.
  const template = isRecord(body.template) ? body.template : undefined;
  const templateOption = (link: Link) =>
    template && obj(linkedTemplate(specOptions(template), template, referThrough(link)) ?? specOptions(template));
  // `asFields`: options whose values have a field the typed option lacks (a notification rule's `conditions`, a
  // variable's `allowedValues`) go through `.withFields()` as written, so they do not turn the whole pipeline
  // into raw.pipeline().
  const options = (shortcuts: boolean, link: Link, asFields: readonly string[]) =>
    obj({
      identifier: lit(body.identifier as string),
      name: nameOption(body),
      project: link('project', body.projectIdentifier) ?? optional(body.projectIdentifier),
      org: unlessDefault(body.orgIdentifier, DEFAULT_ORG),
      description: optional(body.description),
      tags: tagsOption(body.tags),
      template: templateOption(link),
      codebase: shortcuts && onlyCodebase ? wire(codebase) : undefined,
      properties: shortcuts && onlyCodebase ? undefined : optional(body.properties),
      barriers: shortcuts && onlyBarriers ? barriersOption(flowControl.barriers) : undefined,
      allowStageExecutions: optional(body.allowStageExecutions),
      fixedInputsOnRerun: optional(body.fixedInputsOnRerun),
      timeout: optional(body.timeout, (t) => value(t)),
      delegateSelectors: optional(body.delegateSelectors),
      variables: asFields.includes('variables') ? undefined : variablesOption(body.variables),
      notificationRules: asFields.includes('notificationRules') ? undefined : optional(body.notificationRules),
    });
  /** The fields the options write (flowControl only as barriers); any other goes through `.withFields()`. */
  const written = (shortcuts: boolean, asFields: readonly string[]) => [
    ...PIPELINE_FIELDS.filter((field) => !asFields.includes(field)),
    ...(shortcuts && onlyBarriers ? ['flowControl'] : []),
  ];
  const levels: ReadonlyArray<readonly [boolean, readonly string[]]> = [
    [true, []],
    [false, []],
    [false, ['variables']],
    [false, ['notificationRules']],
    [false, ['notificationRules', 'variables']],
  ];
  const candidates = linking(body, context, (link) =>
    levels.map(
      ([shortcuts, asFields]) =>
        () =>
          call(
            'pipeline',
            [options(shortcuts, link, asFields)],
            [...chain, ...otherFieldsChain(body, written(shortcuts, asFields))],
          ),
    ),
  );
  return choose(
    document,
    candidates,
    document,
    asDocument,
    () => call('raw.pipeline', [wire(document)]),
    context.demoted,
  );
}

export function projectCode(document: Node, context: ImportContext = newContext()): Code {
  const body = node(document.project);
  const code = () =>
    call('project', [
      obj({
        identifier: lit(body.identifier as string),
        name: nameOption(body),
        org: unlessDefault(body.orgIdentifier, DEFAULT_ORG),
        color: optional(body.color),
        description: optional(body.description),
        tags: optional(body.tags),
        modules: optional(body.modules),
      }),
    ]);
  return choose(document, [code], document, asDocument, () => call('raw.project', [wire(document)]), context.demoted);
}

export function connectorCode(document: Node, context: ImportContext = newContext()): Code {
  const body = node(document.connector);
  const spec = node(body.spec);
  const common = (link: Link) => ({
    identifier: lit(body.identifier as string),
    name: nameOption(body),
    description: body.description === null ? refuseNullDescription() : optional(body.description),
    tags: optional(body.tags),
    org: optional(body.orgIdentifier),
    project: link('project', body.projectIdentifier) ?? optional(body.projectIdentifier),
    account: body.orgIdentifier === undefined && body.projectIdentifier === undefined ? lit(true) : undefined,
  });
  const auth = node(spec.auth);
  const authSpec = node(auth.spec);
  const docker = (link: Link) => () =>
    body.type === 'DockerRegistry'
      ? call('connectors.dockerRegistry', [
          obj({
            ...common(link),
            url: unlessDefault(spec.dockerRegistryUrl, DOCKER_REGISTRY_DEFAULTS.url),
            provider: unlessDefault(spec.providerType, DOCKER_REGISTRY_DEFAULTS.provider),
            auth:
              auth.type === DOCKER_REGISTRY_DEFAULTS.auth
                ? undefined
                : obj({ username: optional(authSpec.username), passwordRef: optional(authSpec.passwordRef) }),
            delegateSelectors: optional(spec.delegateSelectors),
          }),
        ])
      : undefined;
  const typed = (link: Link) => () => catalogConnectorCode(body, spec, common(link));
  const generic = (link: Link) => () =>
    call('connector', [obj({ ...common(link), type: lit(String(body.type)), spec: wire(spec) })]);
  return choose(
    document,
    linking(body, context, (link) => [docker(link), typed(link), generic(link)]),
    document,
    asDocument,
    () => call('raw.connector', [wire(document)]),
    context.demoted,
  );
}

/**
 * The empty `description:` some connector YAML carries is null, which the platform's schema refuses (a connector's
 * description is a string; validate reports it): no builder writes it, so the document is kept as written.
 */
function refuseNullDescription(): never {
  throw new NotExpressible(
    'description is null (an empty `description:`), which the platform refuses (it must be text): kept as written; write `description: ""` or remove it for the typed builder',
  );
}

/**
 * A connector of a catalogue type as `connectors.<type>()`: its spec fields flat beside the common options, the
 * fields the catalogue does not list under `spec`, written as given.
 */
function catalogConnectorCode(body: Node, spec: Node, common: Record<string, Code | undefined>): Code | undefined {
  const builder = catalog.connectors.find((entry) => entry.type === body.type)?.builder;
  if (builder === undefined || body.type === 'DockerRegistry') return undefined;
  const known = connectorSpecKeys(String(body.type)) ?? [];
  const flat = Object.fromEntries(
    Object.entries(spec)
      .filter(([key]) => known.includes(key))
      .map(([key, field]) => [key, optional(field)]),
  );
  const rest = Object.entries(spec).filter(([key]) => !known.includes(key));
  return call(`connectors.${builder}`, [
    obj({ ...common, ...flat, spec: rest.length ? wire(Object.fromEntries(rest)) : undefined }),
  ]);
}
