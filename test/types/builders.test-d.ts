/**
 * Type tests for the kinds of builder: each offers the methods that make sense for it, and a method that does not
 * (`.step()` on a stage made from a template, `.when()` on a parallel block) is a type error whose message says
 * why (test/builder-misuse.test.ts checks the sentence the editor shows, and the run-time refusal). Checked by
 * `npm run typecheck`: each `@ts-expect-error` must meet an error.
 */
import { expectTypeOf } from 'vitest';
import { isStageBuilder } from '../../src/dsl/stage.js';
import {
  approval,
  expr,
  type Expr,
  ci,
  custom,
  deployment,
  dynamic,
  environment,
  featureFlag,
  http,
  input,
  k8sRollingDeploy,
  parallel,
  pipeline,
  pipelineStage,
  project,
  raw,
  run,
  service,
  shell,
  stage,
  stageTemplate,
  stepGroup,
  stepTemplate,
  template,
  wait,
  type ParallelStages,
  type ParallelSteps,
  type PipelineBuilder,
  type TemplatePipelineBuilder,
  type PipelineOptions,
  type PipelineFromTemplateOptions,
  type PipelineStageBuilder,
  type StageBuilder,
  type StageNode,
  type Suppressible,
  type StageWithoutSteps,
  type StepBuilder,
  type StepGroupBuilder,
  type StepTemplateBuilder,
  type TemplateStageBuilder,
  type TemplateStepGroupBuilder,
} from 'pipewright';

const say = shell({ identifier: 'say', script: 'echo hi', outputs: ['WORD'] });
// onDelegate: null writes no onDelegate (the platform's schema requires only shell and source).
shell({ identifier: 'quiet', script: 'echo hi', onDelegate: null });
// @ts-expect-error: onDelegate is a boolean, an expression, or null for none
shell({ identifier: 'quiet', script: 'echo hi', onDelegate: 'yes' });
const pause = wait({ identifier: 'pause', duration: '1m' });
const roll = k8sRollingDeploy({ identifier: 'roll' });
const infra = { connector: 'cluster', namespace: 'web' };

// --- factories return the public interfaces, named for what they are ---------------------------------------
expectTypeOf(custom({ identifier: 'c' })).toEqualTypeOf<StageBuilder<'Custom'>>();
expectTypeOf(featureFlag({ identifier: 'ff' })).toEqualTypeOf<StageBuilder<'FeatureFlag'>>();
expectTypeOf(stageTemplate({ identifier: 't', templateRef: 'build' })).toEqualTypeOf<TemplateStageBuilder>();
expectTypeOf(
  pipelineStage({ identifier: 'chain', org: 'o', project: 'p', pipeline: 'child' }),
).toEqualTypeOf<PipelineStageBuilder>();
expectTypeOf(dynamic({ identifier: 'dyn' })).toEqualTypeOf<StageWithoutSteps<'Dynamic'>>();
expectTypeOf(parallel(custom({ identifier: 'a' }), custom({ identifier: 'b' }))).toEqualTypeOf<ParallelStages>();
expectTypeOf(parallel(say, pause)).toEqualTypeOf<ParallelSteps<'ShellScript' | 'Wait'>>();
expectTypeOf(stepGroup({ identifier: 'g', steps: [say] })).toEqualTypeOf<StepGroupBuilder<'ShellScript'>>();
expectTypeOf(
  stepGroup({ identifier: 'g', template: { templateRef: 'checks' } }),
).toEqualTypeOf<TemplateStepGroupBuilder>();
expectTypeOf(stepTemplate({ identifier: 's', templateRef: 'echo' })).toEqualTypeOf<StepTemplateBuilder>();
expectTypeOf(raw.stage({ stage: { identifier: 'r', name: 'r', type: 'Custom', spec: {} } })).toEqualTypeOf<
  StageNode & Suppressible
>();
// A template version kept raw still says whether it is the stable one (not part of its YAML); no other kind has such a flag.
expectTypeOf(raw.template).parameter(1).toEqualTypeOf<{ readonly stable?: boolean } | undefined>();
raw.template({ template: { identifier: 't', versionLabel: 'v1' } }, { stable: true });
// @ts-expect-error raw.pipeline takes the document only
raw.pipeline({ pipeline: { identifier: 'p' } }, { stable: true });
// @ts-expect-error stable is a boolean
raw.template({ template: { identifier: 't', versionLabel: 'v1' } }, { stable: 'yes' });
expectTypeOf(pipeline({ identifier: 'p', project: 'web' })).toEqualTypeOf<PipelineBuilder<string, never, never>>();

// --- a stage that runs steps: steps, settings, references ----------------------------------------------------
const cd = deployment({ identifier: 'prod', service: 's', environment: 'e', infrastructure: infra })
  .step(roll, say)
  .rollbackStep(k8sRollingDeploy({ identifier: 'back' }))
  .when({ pipelineStatus: 'Success' })
  .failureStrategies({ action: 'StageRollback' })
  .variables({ region: { type: 'String', value: 'eu' } })
  .strategy({ parallelism: 2 })
  .$if(true, (s) => s.step(pause));
cd.output(say, 'WORD');
cd.variable('region');
ci({ identifier: 'build', runtime: 'Cloud' }).step(run({ identifier: 'test', command: 'npm test' }));
approval({ identifier: 'ok' }).step(pause);
featureFlag({ identifier: 'ff' }).step(pause);
stage({ identifier: 'any', type: 'Whatever' }).step(say);
// @ts-expect-error: a stage's .step() takes steps, not stages
custom({ identifier: 'c' }).step(custom({ identifier: 'd' }));
// .withIdentifier() keeps the stage's type (its steps' placement checks, its outputs).
expectTypeOf(cd.withIdentifier('prod_eu', 'prod (eu)')).toEqualTypeOf(cd);
cd.withIdentifier('again').output(say, 'WORD');
// @ts-expect-error: the identifier is a string
cd.withIdentifier(1);

// --- a pipeline made from a template: no stages of its own --------------------------------------------------
const fromPipelineTemplate = pipeline({
  identifier: 'p',
  project: 'web',
  template: { templateRef: 'account.flow', versionLabel: '1' },
});
expectTypeOf(fromPipelineTemplate).toEqualTypeOf<TemplatePipelineBuilder>();
expectTypeOf(pipeline({ identifier: 'p', project: 'web' })).not.toEqualTypeOf<TemplatePipelineBuilder>();
// @ts-expect-error: a pipeline made from a template has no stages of its own: put the stages in the template
fromPipelineTemplate.stage(custom({ identifier: 'c' }));
// @ts-expect-error: nor steps
fromPipelineTemplate.step(say);
// prettier-ignore
// @ts-expect-error: stages beside a template are not an option
pipeline({ identifier: 'p', project: 'web', template: { templateRef: 'account.flow' }, stages: [custom({ identifier: 'c' })] });

// --- a stage made from a template: no steps of its own --------------------------------------------------------
const fromTemplate = stageTemplate({ identifier: 'b', templateRef: 'build', when: { pipelineStatus: 'Success' } });
fromTemplate.when({ stageStatus: 'Success' }).variable('env');
fromTemplate.output(say, 'WORD'); // an output of a step the template runs
// @ts-expect-error: a stage made from a template has no steps: put the steps in the template
fromTemplate.step(say);
// @ts-expect-error: the same for its rollback
fromTemplate.rollbackStep(say);
// @ts-expect-error: ... and a pipeline's .step() after it
pipeline({ identifier: 'p', project: 'web' }).stage(fromTemplate).step(say);
// @ts-expect-error: renamed, it still has no steps of its own
fromTemplate.withIdentifier('b2').step(say);

// --- a Pipeline stage runs another pipeline ------------------------------------------------------------------
const chained = pipelineStage({ identifier: 'chain', org: 'o', project: 'p', pipeline: 'child' }).when({
  pipelineStatus: 'Success',
});
// @ts-expect-error: a Pipeline stage runs another pipeline and has no steps of its own
chained.step(say);
// @ts-expect-error: nor in its options
pipelineStage({ identifier: 'chain', org: 'o', project: 'p', pipeline: 'child', steps: [say] });
// @ts-expect-error: ... and a pipeline's .step() after it
pipeline({ identifier: 'p', project: 'web' }).stage(chained).step(say);

// --- a catalogue stage whose type has no execution -------------------------------------------------------------
const dyn = dynamic({
  identifier: 'dyn',
  sourceConfig: { type: 'Git', spec: { filePath: 'stages.yaml', repoName: 'infra' } },
});
dyn.variables({ v: { type: 'String', value: 'x' } });
// @ts-expect-error: a Dynamic stage runs no steps: the platform gives its type no execution
dyn.step(say);
// @ts-expect-error: nor in its options
dynamic({ identifier: 'dyn', steps: [say] });
// @ts-expect-error: ... and a pipeline's .step() after it
pipeline({ identifier: 'p', project: 'web' }).stage(dyn).step(say);

// --- parallel stages: a bare list on the wire ------------------------------------------------------------------
const both = parallel(custom({ identifier: 'a' }).when({ pipelineStatus: 'Success' }), custom({ identifier: 'b' }));
expectTypeOf(both.stages).toEqualTypeOf<readonly StageNode[]>();
pipeline({ identifier: 'p', project: 'web' })
  .stage(both, custom({ identifier: 'after' }))
  .step(say);
// @ts-expect-error: parallel(...) stages have no when of their own: set when on each stage inside parallel(...)
both.when({ pipelineStatus: 'Success' });
// @ts-expect-error: ... nor failure strategies
both.failureStrategies({ action: 'Abort' });
// @ts-expect-error: ... nor variables
both.variables({ v: { type: 'String', value: 'x' } });
// @ts-expect-error: ... nor a looping strategy
both.strategy({ parallelism: 2 });
// @ts-expect-error: parallel(...) stages have no steps of their own
both.step(say);
// @ts-expect-error: ... and a pipeline's .step() after them
pipeline({ identifier: 'p', project: 'web' }).stage(both).step(say);
// @ts-expect-error: nothing refers to a parallel block's outputs: it has no identifier of its own
both.output(say, 'WORD');
// @ts-expect-error: a parallel block is not a stage template's one stage
template.stage({ identifier: 'two', versionLabel: 'v1', spec: both });
template.stage({ identifier: 'one', versionLabel: 'v1', spec: custom({ identifier: 'c' }).step(say) });
template.stage({ identifier: 'chain', versionLabel: 'v1', spec: chained });

// --- parallel steps -------------------------------------------------------------------------------------------------
const together = parallel(say, pause);
custom({ identifier: 'c' }).step(together);
stepGroup({ identifier: 'g', steps: [together] });
// @ts-expect-error: parallel(...) steps have no when of their own: set when on each step inside parallel(...)
together.when({ stageStatus: 'Success' });
// @ts-expect-error: ... nor failure strategies
together.failureStrategies({ action: 'Abort' });
// @ts-expect-error: ... nor a looping strategy
together.strategy({ parallelism: 2 });
// @ts-expect-error: ... nor a timeout
together.timeout('10m');
// @ts-expect-error: a parallel block of steps has no .step(): list the steps in parallel(...)
together.step(say);

// --- steps -----------------------------------------------------------------------------------------------------------
const probe: StepBuilder<'WORD', 'ShellScript'> = say
  .timeout('5m')
  .when({ stageStatus: 'Success' })
  .strategy({ parallelism: 2 })
  .withIdentifier('again');
probe.output('WORD');
http({ identifier: 'call', url: 'https://example.com', method: 'GET' }).failureStrategies({ action: 'Ignore' });
// @ts-expect-error: a step has no steps
say.step(pause);
// @ts-expect-error: a step has no stage variables
say.variables({ v: { type: 'String', value: 'x' } });

// --- step groups ---------------------------------------------------------------------------------------------------
const group = stepGroup({ identifier: 'g', steps: [say] })
  .step(pause)
  .rollbackStep(roll);
expectTypeOf(group).toEqualTypeOf<StepGroupBuilder<'ShellScript' | 'Wait' | 'K8sRollingDeploy'>>();
// @ts-expect-error: the group holds a K8sRollingDeploy step, which a Custom stage cannot run
custom({ identifier: 'c' }).step(group);
// .withIdentifier() keeps the step types the group holds, for the placement check.
expectTypeOf(group.withIdentifier('g2', 'second')).toEqualTypeOf<
  StepGroupBuilder<'ShellScript' | 'Wait' | 'K8sRollingDeploy'>
>();
// @ts-expect-error: renamed, the group still holds a K8sRollingDeploy step
custom({ identifier: 'c' }).step(group.withIdentifier('g2'));
const linked = stepGroup({ identifier: 'checks', template: { templateRef: 'security_checks', versionLabel: 'v1' } });
custom({ identifier: 'c' }).step(linked);
// @ts-expect-error: a step group made from a template has no steps of its own: put the steps in the template
linked.step(say);
expectTypeOf(linked.withIdentifier('checks_again')).toEqualTypeOf<TemplateStepGroupBuilder>();

// --- steps from templates ------------------------------------------------------------------------------------------
const fromStepTemplate = stepTemplate({ identifier: 'say', templateRef: 'echo', versionLabel: 'v1' });
custom({ identifier: 'c' }).step(fromStepTemplate);
// @ts-expect-error: a step made from a template has no steps
fromStepTemplate.step(say);

// --- pipelines -------------------------------------------------------------------------------------------------------
// A pipeline reassigned in a loop keeps taking steps (its type starts with any stage, not "no stage yet").
let built = pipeline({ identifier: 'p', project: 'web' });
for (const id of ['a', 'b']) built = built.stage(custom({ identifier: id })).step(say);
built.tags({ team: 'web' }).$call((p) => p.variables({ v: { type: 'String', value: 'x' } }).variable('v'));
// @ts-expect-error: a pipeline's .stage() takes stages, not steps
pipeline({ identifier: 'p', project: 'web' }).stage(say);
// @ts-expect-error: a pipeline is not a stage
pipeline({ identifier: 'p', project: 'web' }).stage(pipeline({ identifier: 'q', project: 'web' }));

// --- resources ---------------------------------------------------------------------------------------------------------
const web = project({ identifier: 'web' }).description('the web team').tags({ team: 'web' });
pipeline({ identifier: 'p', project: web });
// @ts-expect-error: a project has no stages
web.stage(custom({ identifier: 'c' }));
// @ts-expect-error: a service is not a project
pipeline({ identifier: 'p', project: service({ identifier: 'api', deploymentType: 'Kubernetes' }) });
// @ts-expect-error: an environment is not a stage
pipeline({ identifier: 'p', project: 'web' }).stage(environment({ identifier: 'prod', type: 'Production' }));

// --- the brand guard narrows to what every stage list entry has ---------------------------------------------------------
declare const unknownValue: unknown;
if (isStageBuilder(unknownValue)) expectTypeOf(unknownValue).toEqualTypeOf<StageNode>();
expectTypeOf(input).toBeFunction();

// --- .suppress(code, reason): any builder, raw ones too; codes about a document only; a reason is required --
expectTypeOf(shell({ identifier: 'x', script: 'make' }).suppress('unknown-key', 'the platform takes it')).toEqualTypeOf(
  shell({ identifier: 'x', script: 'make' }),
);
expectTypeOf(
  raw.step({ step: { identifier: 'r', name: 'r', type: 'Wait', spec: {} } }).suppress('missing-field', 'legacy form'),
).toMatchTypeOf<Suppressible>();
// @ts-expect-error: not a diagnostic code
shell({ identifier: 'x', script: 'make' }).suppress('unkown-key', 'typo');
// @ts-expect-error: a code about the run, not a document
pipeline({ identifier: 'p', project: 'web' }).suppress('file-not-found', 'no');
// @ts-expect-error: the reason is required
custom({ identifier: 'c' }).suppress('unknown-key');

// --- a value typed PipelineOptions still passes to pipeline() ----------------------------------------------------
const declaredOptions: PipelineOptions = { identifier: 'p', project: 'web' };
expectTypeOf(pipeline(declaredOptions)).toEqualTypeOf<PipelineBuilder<string, string>>();
const fromTemplateOptions: PipelineFromTemplateOptions = {
  identifier: 'p',
  project: 'web',
  template: { templateRef: 'account.flow' },
};
expectTypeOf(pipeline(fromTemplateOptions)).toEqualTypeOf<TemplatePipelineBuilder>();

// The scopes a run is in, as expressions.
expectTypeOf(expr.project.identifier.text).toEqualTypeOf<string>();
expectTypeOf(expr.execution.stepOutput('build', 'VERSION')).toEqualTypeOf<Expr>();
// @ts-expect-error: the account has no orgIdentifier
expr.account.orgIdentifier;

// A notification rule as the builder takes it: name, events and method, which the platform needs to send anything;
// the identifier is optional (the platform's rule has none).
pipeline({
  identifier: 'notified',
  project: 'web',
  notificationRules: [
    { name: 'n', pipelineEvents: [{ type: 'PipelineFailed' }], notificationMethod: { type: 'Email', spec: {} } },
  ],
});
pipeline({
  identifier: 'silent',
  project: 'web',
  // @ts-expect-error: a rule without pipelineEvents sends nothing
  notificationRules: [{ name: 'n', notificationMethod: { type: 'Email', spec: {} } }],
});
pipeline({
  identifier: 'untyped_event',
  project: 'web',
  // @ts-expect-error: an event without its type matches nothing
  notificationRules: [{ name: 'n', pipelineEvents: [{}], notificationMethod: { type: 'Email', spec: {} } }],
});
