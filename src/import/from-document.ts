import { call, chained, commented, lit, obj, type Code } from './code.js';
import type { Comments } from './read-documents.js';
import {
  attempt,
  failureStrategiesOption,
  isNode,
  nameOption,
  optional,
  tagsOption,
  value,
  variablesOption,
  wire,
} from './options.js';
import { asDocument, asStageElement, asStepElement, firstExact } from './verify.js';

type Node = Record<string, unknown>;

/** Options every step builder shares: naming first, then (after the type's own) timing and failure handling. */
const stepHead = (step: Node) => ({
  identifier: lit(step.identifier as string),
  name: nameOption(step),
  description: optional(step.description),
});
const stepTail = (step: Node) => ({
  timeout: optional(step.timeout, (t) => value(t)),
  when: optional(step.when),
  failureStrategies: failureStrategiesOption(step.failureStrategies),
});

/** Typed builders for step types, each returning code to be verified. */
const STEP_IMPORTERS: Record<string, (step: Node) => Code | undefined> = {
  ShellScript(step) {
    const spec = isNode(step.spec) ? step.spec : {};
    const source = isNode(spec.source) ? spec.source : {};
    const script = isNode(source.spec) ? source.spec.script : undefined;
    if (source.type !== 'Inline' || typeof script !== 'string') return undefined;
    const env = Array.isArray(spec.environmentVariables) ? spec.environmentVariables : [];
    const outputs = Array.isArray(spec.outputVariables) ? spec.outputVariables : [];
    const target = spec.executionTarget;
    return call('shell', [
      obj({
        ...stepHead(step),
        script: lit(script),
        shell: spec.shell === 'Bash' ? undefined : optional(spec.shell),
        onDelegate: spec.onDelegate === true ? undefined : optional(spec.onDelegate),
        env: env.length ? obj(Object.fromEntries(env.map((e: Node) => [e.name as string, value(e.value)]))) : undefined,
        outputs: outputs.length ? wire(outputs.map((o: Node) => o.name)) : undefined,
        executionTarget: isNode(target) && Object.keys(target).length === 0 ? undefined : optional(target),
        delegateSelectors: optional(spec.delegateSelectors),
        ...stepTail(step),
      }),
    ]);
  },
};

/** A step list element as code: a typed builder, the generic `step()`, or `raw.step()`, whichever is exact. */
export function stepElementCode(element: Node, comments: Comments): Code {
  const step = isNode(element.step) && Object.keys(element).length === 1 ? element.step : undefined;
  const typed = attempt(() => (step && typeof step.type === 'string' ? STEP_IMPORTERS[step.type]?.(step) : undefined));
  const generic = attempt(
    () =>
      step &&
      call('step', [
        obj({
          ...stepHead(step),
          type: lit(String(step.type)),
          spec: optional(step.spec),
          ...stepTail(step),
        }),
      ]),
  );
  const code = firstExact([typed, generic], element, asStepElement) ?? call('raw.step', [wire(element)]);
  return commented(code, comments.get(element) ?? (step && comments.get(step)));
}

const stageHead = (stage: Node) => ({
  identifier: lit(stage.identifier as string),
  name: nameOption(stage),
  description: optional(stage.description),
  tags: tagsOption(stage.tags),
});
const stageTail = (stage: Node) => ({
  failureStrategies: failureStrategiesOption(stage.failureStrategies),
  when: optional(stage.when),
  variables: variablesOption(stage.variables),
  timeout: optional(stage.timeout, (t) => value(t)),
  delegateSelectors: optional(stage.delegateSelectors),
});

interface StageCode {
  /** The stage builder call, without its steps. */
  readonly stage: Code;
  /** Step codes, added with `.step()`; rollback steps ride on the stage as `.rollbackStep()`. */
  readonly steps: readonly Code[];
}

const execution = (stage: Node): { steps: Node[]; rollbackSteps: Node[] } | undefined => {
  const spec = isNode(stage.spec) ? stage.spec : undefined;
  const exec = spec && isNode(spec.execution) ? spec.execution : undefined;
  if (!exec || !Array.isArray(exec.steps)) return undefined;
  return {
    steps: exec.steps as Node[],
    rollbackSteps: Array.isArray(exec.rollbackSteps) ? (exec.rollbackSteps as Node[]) : [],
  };
};

const withRollback = (code: Code, rollbackSteps: readonly Node[], comments: Comments): Code =>
  rollbackSteps.length
    ? chained(code, [{ method: 'rollbackStep', args: rollbackSteps.map((step) => stepElementCode(step, comments)) }])
    : code;

const STAGE_IMPORTERS: Record<
  string,
  (stage: Node, exec: ReturnType<typeof execution>, comments: Comments) => Code | undefined
> = {
  Deployment(stage, exec, comments) {
    const spec = isNode(stage.spec) ? stage.spec : {};
    const serviceConfig = isNode(spec.serviceConfig) ? spec.serviceConfig : undefined;
    const infra = isNode(spec.infrastructure) ? spec.infrastructure : undefined;
    const definition = infra && isNode(infra.infrastructureDefinition) ? infra.infrastructureDefinition : undefined;
    if (!serviceConfig || !infra || !definition || !exec) return undefined;
    const serviceDefinition = isNode(serviceConfig.serviceDefinition) ? serviceConfig.serviceDefinition : {};
    const defSpec = isNode(definition.spec) ? definition.spec : {};
    const serviceVariables = isNode(serviceDefinition.spec) ? serviceDefinition.spec.variables : undefined;
    const code = call('deployment', [
      obj({
        ...stageHead(stage),
        service: value(serviceConfig.serviceRef),
        deploymentType: serviceDefinition.type === 'Kubernetes' ? undefined : optional(serviceDefinition.type),
        serviceVariables:
          Array.isArray(serviceVariables) && serviceVariables.length ? variablesOption(serviceVariables) : undefined,
        environment: value(infra.environmentRef),
        infrastructure: obj({
          type: definition.type === 'KubernetesDirect' ? undefined : optional(definition.type),
          connector: value(defSpec.connectorRef),
          namespace: value(defSpec.namespace),
          releaseName: optional(defSpec.releaseName, (t) => value(t, true)),
        }),
        allowSimultaneousDeployments:
          infra.allowSimultaneousDeployments === false ? undefined : optional(infra.allowSimultaneousDeployments),
        ...stageTail(stage),
      }),
    ]);
    return withRollback(code, exec.rollbackSteps, comments);
  },
};

/** A stages element as code, verified exactly; steps are split out so the pipeline chain reads in order. */
export function stageElementCode(element: Node, comments: Comments): StageCode {
  const stage = isNode(element.stage) && Object.keys(element).length === 1 ? element.stage : undefined;
  const exec = stage ? execution(stage) : undefined;
  const steps = (exec?.steps ?? []).map((step) => stepElementCode(step, comments));
  const withSteps = (code: Code | undefined) =>
    code && chained(code, steps.length ? [{ method: 'step', args: steps }] : []);
  if (stage) {
    const typed = attempt(() =>
      typeof stage.type === 'string' ? STAGE_IMPORTERS[stage.type]?.(stage, exec, comments) : undefined,
    );
    if (typed && firstExact([withSteps(typed)], element, asStageElement)) return { stage: typed, steps };
    const { execution: _execution, ...specRest } = isNode(stage.spec) ? stage.spec : {};
    const execRest =
      exec && isNode((stage.spec as Node).execution) ? { ...((stage.spec as Node).execution as Node) } : undefined;
    if (execRest) {
      delete execRest.steps;
      // An empty rollback list stays in the spec, so the builder writes it back.
      if (exec!.rollbackSteps.length > 0) delete execRest.rollbackSteps;
    }
    const genericSpec =
      stage.spec === undefined
        ? undefined
        : {
            ...specRest,
            ...(execRest && Object.keys(execRest).length ? { execution: execRest } : {}),
          };
    const generic = attempt(
      () =>
        exec &&
        withRollback(
          call('stage', [
            obj({
              ...stageHead(stage),
              type: lit(String(stage.type)),
              spec: genericSpec && Object.keys(genericSpec).length === 0 ? undefined : optional(genericSpec),
              ...stageTail(stage),
            }),
          ]),
          exec.rollbackSteps,
          comments,
        ),
    );
    if (generic && firstExact([withSteps(generic)], element, asStageElement)) return { stage: generic, steps };
    const plain = attempt(() =>
      call('stage', [
        obj({
          ...stageHead(stage),
          type: lit(String(stage.type)),
          spec: optional(stage.spec),
          ...stageTail(stage),
        }),
      ]),
    );
    if (plain && firstExact([plain], element, asStageElement)) return { stage: plain, steps: [] };
  }
  return { stage: call('raw.stage', [wire(element)]), steps: [] };
}

/** A whole pipeline document as a builder chain, or `raw.pipeline()` when no builder reproduces it. */
export function pipelineCode(document: Node, comments: Comments = new WeakMap()): Code {
  const body = isNode(document.pipeline) ? document.pipeline : {};
  const chain = (Array.isArray(body.stages) ? (body.stages as Node[]) : []).flatMap((element) => {
    const { stage, steps } = stageElementCode(element, comments);
    const comment = comments.get(element) ?? (isNode(element.stage) ? comments.get(element.stage) : undefined);
    return [
      { method: 'stage', args: [commented(stage, comment)] },
      ...steps.map((step) => ({ method: 'step', args: [step] })),
    ];
  });
  const typed = attempt(() =>
    call(
      'pipeline',
      [
        obj({
          identifier: lit(body.identifier as string),
          name: nameOption(body),
          project: optional(body.projectIdentifier),
          org: body.orgIdentifier === 'default' ? undefined : optional(body.orgIdentifier),
          description: optional(body.description),
          tags: tagsOption(body.tags),
          properties: optional(body.properties),
          timeout: optional(body.timeout, (t) => value(t)),
          delegateSelectors: optional(body.delegateSelectors),
          variables: variablesOption(body.variables),
        }),
      ],
      chain,
    ),
  );
  return firstExact([typed], document, asDocument) ?? call('raw.pipeline', [wire(document)]);
}

export function projectCode(document: Node): Code {
  const body = isNode(document.project) ? document.project : {};
  const code = attempt(() =>
    call('project', [
      obj({
        identifier: lit(body.identifier as string),
        name: nameOption(body),
        org: body.orgIdentifier === 'default' ? undefined : optional(body.orgIdentifier),
        color: optional(body.color),
        description: optional(body.description),
        tags: optional(body.tags),
        modules: optional(body.modules),
      }),
    ]),
  );
  return firstExact([code], document, asDocument) ?? call('raw.project', [wire(document)]);
}

export function connectorCode(document: Node): Code {
  const body = isNode(document.connector) ? document.connector : {};
  const spec = isNode(body.spec) ? body.spec : {};
  const common = () => ({
    identifier: lit(body.identifier as string),
    name: nameOption(body),
    description: optional(body.description),
    tags: optional(body.tags),
    org: optional(body.orgIdentifier),
    project: optional(body.projectIdentifier),
    account: body.orgIdentifier === undefined && body.projectIdentifier === undefined ? lit(true) : undefined,
  });
  const auth = isNode(spec.auth) ? spec.auth : {};
  const authSpec = isNode(auth.spec) ? auth.spec : {};
  const docker = attempt(() =>
    body.type === 'DockerRegistry'
      ? call('connectors.dockerRegistry', [
          obj({
            ...common(),
            url:
              spec.dockerRegistryUrl === 'https://index.docker.io/v2/' ? undefined : optional(spec.dockerRegistryUrl),
            provider: spec.providerType === 'DockerHub' ? undefined : optional(spec.providerType),
            auth:
              auth.type === 'Anonymous'
                ? undefined
                : obj({
                    username: optional(authSpec.username),
                    passwordRef: optional(authSpec.passwordRef),
                  }),
            delegateSelectors: optional(spec.delegateSelectors),
          }),
        ])
      : undefined,
  );
  const generic = attempt(() =>
    call('connector', [obj({ ...common(), type: lit(String(body.type)), spec: wire(spec) })]),
  );
  return firstExact([docker, generic], document, asDocument) ?? call('raw.connector', [wire(document)]);
}
