import { describe, expect, it } from 'vitest';
import {
  approval,
  barrier,
  ci,
  custom,
  deployment,
  harnessApproval,
  http,
  input,
  k8sRollingDeploy,
  parallel,
  pipeline,
  pipelineStage,
  run,
  shell,
  stageTemplate,
  step,
  stepGroup,
  stepTemplate,
  wait,
  type StageNode,
} from 'pipewright';
import { validateDocument } from '../src/check/check-document.js';
import { inputProblem } from '../src/check/rules-inputs.js';
import { oneStepPipeline } from './support/fixtures.js';

/** `code: message (hint)` of every diagnostic of a pipeline built from these stages. */
const diagnosticsOf = (...stages: StageNode[]) =>
  validateDocument(
    'pipeline',
    pipeline({ identifier: 'p', project: 'web', barriers: ['ready'] })
      .stage(...stages)
      .toDocument(),
  ).map((d) => `${d.code}: ${d.message}${d.hint ? ` (${d.hint})` : ''}`);

const approvers = { userGroups: ['leads'], minimumCount: 1, disallowPipelineExecutor: false };
const cd = (identifier = 'deploy') =>
  deployment({
    identifier,
    deploymentType: 'Kubernetes',
    service: 'api',
    environment: 'dev',
    infrastructureDefinitions: ['k8s'],
  });
const build = (identifier = 'build') => ci({ identifier, platform: { os: 'Linux', arch: 'Amd64' }, runtime: 'Cloud' });
const tests = () => run({ identifier: 'tests', command: 'npm test' });
const rolling = () => k8sRollingDeploy({ identifier: 'rolling', timeout: '10m' });
const echo = (identifier: string, script: string) => shell({ identifier, script });

describe('step placement', () => {
  it('accepts container steps in CI, deploy steps in Deployment, approvals in Approval', () => {
    expect(
      diagnosticsOf(
        build().step(tests()),
        cd().step(rolling()),
        approval({ identifier: 'ok' }).step(harnessApproval({ identifier: 'a', approvers })),
      ),
    ).toEqual([]);
  });

  it('warns about a Run step in a Deployment stage outside a containerised step group: saved, it fails when it runs', () => {
    expect(diagnosticsOf(cd().step(tests(), rolling()))).toEqual([
      'step-not-allowed: a Run step runs in a container and cannot run in a Deployment stage outside a containerised step group: the platform saves the pipeline and the step fails when it runs (move it to a CI stage, or into a stepGroup with stepGroupInfra (a Kubernetes cluster to run it on))',
    ]);
    const document = pipeline({ identifier: 'p', project: 'web' }).stage(cd().step(tests(), rolling())).toDocument();
    expect(validateDocument('pipeline', document).map((d) => d.severity)).toEqual(['warning']);
  });

  it('refuses a container step in a stage the schema does not list it for', () => {
    const document = pipeline({ identifier: 'p', project: 'web' })
      .stage(
        approval({ identifier: 'a' }).step(step({ identifier: 'r', type: 'Run', spec: { shell: 'Sh', command: 'x' } })),
      )
      .toDocument();
    expect(validateDocument('pipeline', document).map((d) => [d.code, d.severity])).toEqual([
      ['step-not-allowed', 'error'],
    ]);
  });

  it('accepts it inside a containerised step group, also nested and in parallel', () => {
    const group = stepGroup({ identifier: 'checks', containerInfra: { connector: 'k8s', namespace: 'ci' } }).step(
      stepGroup({ identifier: 'inner' }).step(parallel(tests(), run({ identifier: 'lint', command: 'npm run lint' }))),
    );
    expect(diagnosticsOf(cd().step(rolling(), group))).toEqual([]);
  });

  it('still rejects it inside a step group without stepGroupInfra, and in a Custom stage', () => {
    const group = stepGroup({ identifier: 'checks' }).step(tests());
    expect(
      diagnosticsOf(
        cd().step(rolling(), group),
        custom({ identifier: 'c' }).step(run({ identifier: 'x', command: 'x' })),
      ),
    ).toEqual([
      expect.stringContaining('a Run step runs in a container and cannot run in a Deployment stage'),
      expect.stringContaining('a Run step runs in a container and cannot run in a Custom stage'),
    ]);
  });

  it('rejects K8s and Helm steps outside Deployment stages, in rollback steps too', () => {
    expect(
      diagnosticsOf(
        // @ts-expect-error: misplaced on purpose; the types refuse it, the runtime rule is under test here
        build().step(tests(), rolling()),
        custom({ identifier: 'c' })
          .step(wait({ identifier: 'w', duration: '1m' }))
          .rollbackStep(step({ identifier: 'h', type: 'HelmRollback' })),
      ),
    ).toEqual([
      // HelmStepNode requires `spec` in the schema.
      'missing-field: spec is required (expected object)',
      'step-not-allowed: a K8sRollingDeploy step deploys a service and cannot run in a CI stage (move it to a Deployment stage, which has the service and infrastructure it needs)',
      'step-not-allowed: a HelmRollback step deploys a service and cannot run in a Custom stage (move it to a Deployment stage, which has the service and infrastructure it needs)',
    ]);
  });

  it('rejects approval steps in a CI stage, and says nothing about stage types it does not know', () => {
    // @ts-expect-error: misplaced on purpose; the types refuse it, the runtime rule is under test here
    expect(diagnosticsOf(build().step(tests(), harnessApproval({ identifier: 'a', approvers })))).toEqual([
      'step-not-allowed: a HarnessApproval step cannot run in a CI stage (put approvals in an Approval stage (or a Deployment or Custom stage) before or after the build)',
    ]);
    const iacm = pipeline({ identifier: 'p', project: 'web' })
      // @ts-expect-error: misplaced on purpose (see above)
      .stage(custom({ identifier: 'x' }).step(rolling()))
      .toDocument() as any;
    iacm.pipeline.stages[0].stage.type = 'AcmeRollout';
    expect(validateDocument('pipeline', iacm)).toEqual([]);
  });
});

describe('expression references', () => {
  it('accepts references to existing stages and steps, in all four forms', () => {
    const health = http({ identifier: 'health', url: 'https://x', method: 'GET' });
    const stage1 = custom({ identifier: 'checks' }).step(
      health,
      echo('a', '<+execution.steps.health.output.httpResponseCode> <+steps.health.status>'),
    );
    const stage2 = custom({ identifier: 'report' }).step(
      echo('b', '<+pipeline.stages.checks.spec.execution.steps.health.status> <+stages.checks.status>'),
    );
    expect(diagnosticsOf(stage1, stage2)).toEqual([]);
  });

  it('rejects a step that does not exist, with the closest identifier as hint', () => {
    const stage1 = custom({ identifier: 'checks' }).step(
      http({ identifier: 'health', url: 'https://x', method: 'GET' }),
      echo('a', 'echo <+steps.helth.status>'),
    );
    expect(diagnosticsOf(stage1)).toEqual([
      'unknown-reference: spec.source.spec.script refers to step "helth", which is not a step of this stage (did you mean "health"?)',
    ]);
  });

  it('rejects <+execution.steps.X> naming a step of another stage', () => {
    const other = custom({ identifier: 'other' }).step(echo('only_here', 'true'));
    const here = custom({ identifier: 'here' }).step(echo('a', '<+execution.steps.only_here.status>'));
    expect(diagnosticsOf(other, here)).toEqual([
      'unknown-reference: spec.source.spec.script refers to step "only_here", which is not a step of this stage (the platform resolves <+execution.steps.only_here...> only at run time, and it fails unless a step with that identifier runs in the same execution)',
    ]);
  });

  it('rejects a stage that does not exist, and a step missing from the named stage', () => {
    const checks = custom({ identifier: 'checks' }).step(echo('print', 'true'));
    const report = custom({ identifier: 'report' }).step(
      echo('a', '<+stages.chekcs.status> <+pipeline.stages.checks.spec.execution.steps.prnt.status>'),
    );
    expect(diagnosticsOf(checks, report)).toEqual([
      'unknown-reference: spec.source.spec.script refers to stage "chekcs", which is not a stage of this pipeline (did you mean "checks"?)',
      'unknown-reference: spec.source.spec.script refers to step "prnt" of stage "checks", which does not exist (did you mean "print"?)',
    ]);
  });

  it('accepts the runs of a looped stage (ID_0, ID_1) and steps inside step groups', () => {
    const looped = cd('region')
      .step(rolling())
      .strategy({ repeat: { items: ['eu', 'us'] } });
    const report = custom({ identifier: 'report' }).step(
      stepGroup({ identifier: 'group' }).step(echo('inner', 'true')),
      echo('a', '<+pipeline.stages.region_0.status> <+execution.steps.group.steps.inner.status> <+steps.inner.status>'),
    );
    expect(diagnosticsOf(looped, report)).toEqual([]);
  });

  it("does not judge step ids of template stages and step groups, nor expressions in a chained pipeline's inputs", () => {
    const tpl = stageTemplate({ identifier: 'tpl', templateRef: 't', versionLabel: 'v1' });
    const grouped = custom({ identifier: 'g' }).step(
      stepTemplate({ identifier: 'from_template', templateRef: 's', versionLabel: 'v1' }),
    );
    const chained = pipelineStage({
      identifier: 'child',
      org: 'default',
      project: 'web',
      pipeline: 'other',
      inputs: { x: '<+pipeline.stages.child_only.status>' },
    });
    const report = custom({ identifier: 'report' }).step(
      echo('a', '<+pipeline.stages.tpl.spec.execution.steps.anything.status> <+pipeline.stages.child.status>'),
    );
    expect(diagnosticsOf(tpl, grouped, chained, report)).toEqual([]);
  });

  it('ignores names that only look like references (variables called stages, plain text outside <+...>)', () => {
    const s = custom({ identifier: 's' }).step(
      echo('a', 'echo steps.nothing <+pipeline.variables.stages> <+stage.variables.steps>'),
    );
    expect(diagnosticsOf(s)).toEqual([]);
  });
});

describe('stage names given as values', () => {
  const reuse = (identifier: string, from: string) =>
    deployment({
      identifier,
      deploymentType: 'Kubernetes',
      service: { useFromStage: from },
      environment: 'prod',
      infrastructureDefinitions: ['k8s'],
    }).step(rolling());

  it('accepts useFromStage naming an earlier stage, and notification forStages naming stages or AllStages', () => {
    const rules = [
      {
        name: 'n',
        identifier: 'n',
        pipelineEvents: [{ type: 'StageFailed', forStages: ['deploy', 'AllStages'] }],
        notificationMethod: { type: 'Slack' as const, spec: { webhookUrl: 'https://hooks.example.com' } },
      },
    ];
    const document = pipeline({ identifier: 'p', project: 'web', notificationRules: rules }).stage(
      cd().step(rolling()),
      reuse('again', 'deploy'),
    );
    expect(validateDocument('pipeline', document.toDocument())).toEqual([]);
  });

  it('rejects useFromStage naming a later or missing stage', () => {
    expect(diagnosticsOf(reuse('first', 'deploy'), cd().step(rolling()), reuse('third', 'deplyo'))).toEqual([
      'unknown-reference: spec.service.useFromStage.stage names earlier stage "deploy", which does not exist (a stage can reuse only what a stage before it set up)',
      'unknown-reference: spec.service.useFromStage.stage names earlier stage "deplyo", which does not exist (did you mean "deploy"?)',
    ]);
  });

  it('rejects a CI infrastructure reused from a stage that is not there, and notification forStages naming no stage', () => {
    const second = ci({ identifier: 'second', infrastructure: { useFromStage: 'frist' } }).step(tests());
    const rules = [
      {
        name: 'n',
        identifier: 'n',
        pipelineEvents: [{ type: 'StageFailed', forStages: ['secnd'] }],
        notificationMethod: { type: 'Slack' as const, spec: {} },
      },
    ];
    const document = pipeline({ identifier: 'p', project: 'web', notificationRules: rules }).stage(
      build('first').step(tests()),
      second,
    );
    expect(validateDocument('pipeline', document.toDocument()).map((d) => `${d.message} (${d.hint})`)).toEqual([
      'spec.infrastructure.useFromStage names earlier stage "frist", which does not exist (did you mean "first"?)',
      'notificationRules[0].pipelineEvents[0].forStages[0] names stage "secnd", which does not exist (did you mean "second"?)',
    ]);
  });
});

describe('runtime inputs', () => {
  it.each([
    '<+input>',
    '<+input>.default(prod)',
    '<+input>.allowedValues(dev,qa,prod)',
    '<+input>.selectOneFrom(a,b).default(a)',
    '<+input>.selectManyFrom(a,b)',
    '<+input>.regex(^(v[0-9]+)$)',
    '<+input>.default(1).executionInput()',
  ])('accepts %s', (text) => {
    expect(inputProblem(text)).toBeUndefined();
  });

  it.each([
    ['<+input>.allowedValue(a)', 'uses an unknown runtime-input method "allowedValue"'],
    ['<+input>.default', 'calls .default without parentheses'],
    ['<+input>.default(a', 'has an unclosed "(" in .default(...)'],
    ['<+input>.regex(^(a$)', 'has an unclosed "(" in .regex(...)'],
    ['<+input>.default()', 'calls .default() without a value'],
    ['<+input>.executionInput(now)', 'passes arguments to .executionInput(), which takes none'],
    ['<+input>default(a)', 'has "default(a)" after <+input>; expected .method(...)'],
  ])('rejects %s', (text, message) => {
    expect(inputProblem(text)?.message).toBe(message);
  });

  it('checks values anywhere in the document, with the path and a hint', () => {
    const s = custom({ identifier: 's' }).step(
      wait({ identifier: 'w', duration: input().default('1m') }),
      step({ identifier: 'x', type: 'Mine', spec: { deep: ['<+input>.selectOneForm(a)'] } }),
    );
    expect(diagnosticsOf(s)).toEqual([
      'invalid-runtime-input: spec.deep[0] "<+input>.selectOneForm(a)" uses an unknown runtime-input method "selectOneForm" (did you mean "selectOneFrom"?)',
    ]);
  });
});

describe('barriers', () => {
  it('accepts a Barrier step naming a declared barrier (or an expression)', () => {
    const s = custom({ identifier: 's' }).step(
      barrier({ identifier: 'b', barrierRef: 'ready' }),
      barrier({ identifier: 'c', barrierRef: input() }),
    );
    expect(diagnosticsOf(s)).toEqual([]);
  });

  it('warns about a Barrier step naming an undeclared barrier: saved, the run fails as it starts', () => {
    const s = custom({ identifier: 's' }).step(barrier({ identifier: 'b', barrierRef: 'reddy' }));
    expect(diagnosticsOf(s)).toEqual([
      'unknown-barrier: spec.barrierRef "reddy" names no barrier of this pipeline (did you mean "ready"?)',
    ]);
    const document = pipeline({ identifier: 'p', project: 'web', barriers: ['ready'] })
      .stage(s)
      .toDocument();
    expect(validateDocument('pipeline', document).map((d) => d.severity)).toEqual(['warning']);
  });

  it('take any text as an identifier, as the platform reads it (a plain String, no pattern)', () => {
    const withBarrier = (identifier: string) => {
      const document = oneStepPipeline({ name: 'w', identifier: 'w', type: 'Wait', spec: { duration: '1m' } });
      (document.pipeline as Record<string, unknown>).flowControl = { barriers: [{ name: 'ready', identifier }] };
      return document;
    };
    expect(validateDocument('pipeline', withBarrier('<+input>'))).toEqual([]);
    expect(validateDocument('pipeline', withBarrier('')).map((d) => d.code)).toEqual(['too-small']);
  });
});

describe('misspelled keys', () => {
  const withStep = (extra: Record<string, unknown>) =>
    diagnosticsOf(
      custom({ identifier: 's' }).step(step({ identifier: 'w', type: 'Wait', spec: { duration: '1m', ...extra } })),
    );

  it('flags an unknown key a couple of edits from a modelled one, in a typed spec', () => {
    expect(withStep({ duraton: '2m' })).toEqual([
      'unknown-key: unknown key "duraton" in spec (did you mean "duration"?)',
    ]);
  });

  it('lets unrelated unknown keys and short keys through: real documents carry fields pipewright does not model', () => {
    expect(withStep({ notes: 'x', ab: 1, somethingElse: true })).toEqual([]);
  });

  it('flags keys of the stage and pipeline too, and follows the spec registry of the stage type', () => {
    const document = pipeline({ identifier: 'p', project: 'web' }).stage(build().step(tests())).toDocument() as any;
    document.pipeline.tiemout = '1h';
    document.pipeline.stages[0].stage.spec.clonecodebase = true;
    expect(validateDocument('pipeline', document).map((d) => `${d.message} (${d.hint})`)).toEqual([
      'unknown key "clonecodebase" in spec (did you mean "cloneCodebase"?)',
      'unknown key "tiemout" (did you mean "timeout"?)',
    ]);
  });
});

describe('codebase', () => {
  it('warns about a CI stage that clones while the pipeline names no codebase (it fails at run time)', () => {
    expect(
      diagnosticsOf(
        ci({
          identifier: 'b',
          cloneCodebase: true,
          ...{ platform: { os: 'Linux', arch: 'Amd64' }, runtime: 'Cloud' },
        }).step(tests()),
      ),
    ).toEqual([
      'clone-without-codebase: cloneCodebase is true but the pipeline has no properties.ci.codebase to clone (add properties.ci.codebase (connectorRef, repoName, build) to the pipeline, or set cloneCodebase: false)',
    ]);
  });

  it('accepts it with a codebase, and a stage that does not clone without one', () => {
    const cloning = ci({
      identifier: 'b',
      cloneCodebase: true,
      platform: { os: 'Linux', arch: 'Amd64' },
      runtime: 'Cloud',
    }).step(tests());
    const document = pipeline({
      identifier: 'p',
      project: 'web',
      codebase: { connectorRef: 'gh', repoName: 'web', build: input() },
    }).stage(cloning);
    expect(validateDocument('pipeline', document.toDocument())).toEqual([]);
    expect(diagnosticsOf(build().step(tests()))).toEqual([]);
  });
});

describe('stage specs', () => {
  it('warns when a CI stage does not say where it runs (the platform saves it; it fails when it runs)', () => {
    expect(diagnosticsOf(ci({ identifier: 'b' }).step(tests()))).toEqual([
      'no-build-infrastructure: this CI stage says neither where it runs (runtime, platform) nor on what infrastructure (add runtime: { type: Cloud, spec: {} } with platform: { os: Linux, arch: Amd64 } for Harness Cloud, or infrastructure (a Kubernetes cluster or VM pool))',
    ]);
    const document = pipeline({ identifier: 'p', project: 'web' })
      .stage(ci({ identifier: 'b' }).step(tests()))
      .toDocument();
    expect(validateDocument('pipeline', document).map((d) => d.severity)).toEqual(['warning']);
  });

  it('requires deploymentType with the service/environment form', () => {
    const document = pipeline({ identifier: 'p', project: 'web' }).stage(cd().step(rolling())).toDocument() as any;
    delete document.pipeline.stages[0].stage.spec.deploymentType;
    expect(validateDocument('pipeline', document).map((d) => d.message)).toEqual([
      'spec.deploymentType is required (expected string)',
    ]);
  });

  it('requires a type on a stage or step unless a template supplies it', () => {
    const document = pipeline({ identifier: 'p', project: 'web' })
      .stage(custom({ identifier: 's' }).step(wait({ identifier: 'w', duration: '1m' })))
      .toDocument() as any;
    delete document.pipeline.stages[0].stage.spec.execution.steps[0].step.type;
    expect(validateDocument('pipeline', document).map((d) => d.message)).toEqual([
      'type is required (expected string)',
    ]);
  });

  it('allows exactly one looping strategy', () => {
    expect(
      diagnosticsOf(
        cd()
          .step(rolling())
          .strategy({ parallelism: 2, matrix: { a: ['x'] } }),
      ),
    ).toEqual([
      'invalid-value: a strategy has exactly one of matrix, repeat or parallelism (found matrix, parallelism)',
    ]);
    expect(diagnosticsOf(cd().step(rolling()).strategy({ repeat: {} }))).toEqual([
      'invalid-value: repeat needs times or items',
    ]);
  });
});

describe('notification rules (read by the platform only when an event fires)', () => {
  const wait = { name: 'w', identifier: 'w', type: 'Wait', spec: { duration: '1m' } };
  const withRules = (rules: unknown[]) => {
    const document = oneStepPipeline(wait);
    (document.pipeline as Record<string, unknown>).notificationRules = rules;
    return document;
  };
  const findings = (rules: unknown[]) =>
    validateDocument('pipeline', withRules(rules)).map((d) => `${d.severity} ${d.code}: ${d.message}`);
  const method = { type: 'Email', spec: { recipients: ['a@example.com'] } };

  it('takes a rule without name or identifier (the platform has no identifier for one)', () => {
    expect(findings([{ pipelineEvents: [{ type: 'PipelineFailed' }], notificationMethod: method }])).toEqual([]);
  });

  it('warns, and does not refuse, a rule without events or method: saved, it sends nothing', () => {
    expect(findings([{ name: 'quiet', pipelineEvents: [], notificationMethod: method }, { name: 'nowhere' }])).toEqual([
      'warning notification-sends-nothing: notification rule "quiet" has no pipelineEvents with a type: the platform saves it and sends nothing',
      'warning notification-sends-nothing: notification rule "nowhere" has no pipelineEvents with a type and no notificationMethod with a spec: the platform saves it and sends nothing',
    ]);
  });

  it('says nothing about a disabled rule', () => {
    expect(findings([{ name: 'off', enabled: false }])).toEqual([]);
  });

  it('counts an event without its type and a method without its spec as missing', () => {
    expect(findings([{ name: 'half', pipelineEvents: [{}], notificationMethod: { type: 'Email' } }])).toEqual([
      'warning notification-sends-nothing: notification rule "half" has no pipelineEvents with a type and no notificationMethod with a spec: the platform saves it and sends nothing',
    ]);
  });
});
