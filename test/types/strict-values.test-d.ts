/**
 * Booleans and numbers are as strict in the types as the platform is when it reads them: the value itself,
 * an `input()`, an `expr`, or text holding a `<+...>` expression, never other text (`'nope'` for a boolean
 * fails on the platform). Enums stay unions of their values. Checked by `npm run typecheck` (tsc and tsgo).
 */
import { expectTypeOf } from 'vitest';
import {
  approval,
  ci,
  custom,
  deployment,
  expr,
  harnessApproval,
  helmDeploy,
  input,
  k8sApply,
  k8sRollingDeploy,
  pipeline,
  run,
  securityTests,
  shell,
  terraformApply,
  type Expressive,
} from 'pipewright';

const approvers = { userGroups: ['ops'], minimumCount: 1, disallowPipelineExecutor: false };

// --- accepted: the value, input(), an expr, an expression string --------------------------------------
harnessApproval({ identifier: 'a', approvalMessage: 'ok?', approvers });
harnessApproval({
  identifier: 'a',
  approvers: { ...approvers, minimumCount: input(), disallowPipelineExecutor: true },
});
harnessApproval({
  identifier: 'a',
  approvers: {
    ...approvers,
    minimumCount: '<+pipeline.variables.approvers>',
    disallowPipelineExecutor: expr.pipeline.variable('strict'),
  },
});
harnessApproval({ identifier: 'a', approvers: { ...approvers, minimumCount: input().default(2) } });
k8sRollingDeploy({ identifier: 'roll', skipDryRun: true });
k8sRollingDeploy({ identifier: 'roll', skipDryRun: input() });
k8sRollingDeploy({ identifier: 'roll', skipDryRun: '<+pipeline.variables.x>' });
k8sRollingDeploy({ identifier: 'roll', skipDryRun: expr`<+stage.variables.dry>` });
helmDeploy({ identifier: 'helm', skipDryRun: false, skipSteadyStateCheck: '<+input>', useUpgradeInstall: true });
k8sApply({ identifier: 'apply', filePaths: ['job.yaml'], skipDryRun: input(), skipSteadyStateCheck: true });
terraformApply({
  identifier: 'tf',
  provisionerIdentifier: 'infra',
  configuration: { type: 'InheritFromPlan', skipRefreshCommand: '<+pipeline.variables.skip>' },
});
run({ identifier: 'r', command: 'make', runAsUser: 1000 });
run({ identifier: 'r', command: 'make', runAsUser: '<+pipeline.variables.uid>', privileged: input() });

// --- refused: text that is no expression -------------------------------------------------------------
// @ts-expect-error minimumCount is a number (or an expression), not 'one'
harnessApproval({ identifier: 'a', approvers: { ...approvers, minimumCount: 'one' } });
// @ts-expect-error disallowPipelineExecutor is a boolean (or an expression), not 'nope'
harnessApproval({ identifier: 'a', approvers: { ...approvers, disallowPipelineExecutor: 'nope' } });
// @ts-expect-error skipDryRun is a boolean (or an expression), not 'maybe'
k8sRollingDeploy({ identifier: 'roll', skipDryRun: 'maybe' });
// @ts-expect-error 'true' as text is not a boolean (YAML would write a string)
helmDeploy({ identifier: 'helm', useUpgradeInstall: 'true' });
// @ts-expect-error includePipelineExecutionHistory is a boolean
harnessApproval({ identifier: 'a', approvers, includePipelineExecutionHistory: 'yes' });
// @ts-expect-error runAsUser is a number
run({ identifier: 'r', command: 'make', runAsUser: 'root' });
// @ts-expect-error an expression needs `<+`; `{pipeline.x}` is not one
k8sApply({ identifier: 'apply', filePaths: ['job.yaml'], skipSteadyStateCheck: '{pipeline.x}' });

// --- enums stay unions: their values or an expression -------------------------------------------------
shell({ identifier: 's', script: 'echo', shell: 'PowerShell' });
// @ts-expect-error not a shell the platform runs
shell({ identifier: 's', script: 'echo', shell: 'Zsh' });
terraformApply({ identifier: 'tf', provisionerIdentifier: 'infra', configuration: { type: 'InheritFromPlan' } });
// @ts-expect-error not a configuration type
terraformApply({ identifier: 'tf', provisionerIdentifier: 'infra', configuration: { type: 'FromPlan' } });

// --- hand-written builders whose options come from the wire schema ----------------------------------
pipeline({ identifier: 'p', project: 'web', allowStageExecutions: true });
pipeline({ identifier: 'p', project: 'web', fixedInputsOnRerun: false });
// @ts-expect-error fixedInputsOnRerun is a plain boolean in the platform's schema
pipeline({ identifier: 'p', project: 'web', fixedInputsOnRerun: '<+input>' });
ci({ identifier: 'build', runtime: 'Cloud', platform: { os: 'Linux', arch: 'Amd64' }, cloneCodebase: input() });
// @ts-expect-error cloneCodebase is a boolean
ci({ identifier: 'build', runtime: 'Cloud', platform: { os: 'Linux', arch: 'Amd64' }, cloneCodebase: 'sure' });
deployment({ identifier: 'd', deploymentType: 'Kubernetes', service: 's', environment: 'e', deployToAll: input() });
// @ts-expect-error deployToAll is a boolean
deployment({ identifier: 'd', deploymentType: 'Kubernetes', service: 's', environment: 'e', deployToAll: 'all' });
deployment({
  identifier: 'd',
  service: 's',
  environment: 'e',
  infrastructure: { connector: 'k', namespace: 'n' },
  allowSimultaneousDeployments: input(),
});
deployment({
  identifier: 'd',
  service: 's',
  environment: 'e',
  infrastructure: { connector: 'k', namespace: 'n' },
  // @ts-expect-error allowSimultaneousDeployments is a boolean
  allowSimultaneousDeployments: 'no',
});
approval({ identifier: 'ok' });
custom({ identifier: 'c' });

// --- one declaration: Expressive is what every such field takes ------------------------------------------
expectTypeOf<'<+input>'>().toMatchTypeOf<Expressive<boolean>>();
expectTypeOf<'nope'>().not.toMatchTypeOf<Expressive<boolean>>();
expectTypeOf(input()).toMatchTypeOf<Expressive<number>>();

// --- `steps: [...]` options are placed in the types, as `.step()` is ----------------------------------------
const roll = k8sRollingDeploy({ identifier: 'roll' });
const unit = run({ identifier: 'unit', command: 'make test' });
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  service: 's',
  environment: 'e',
  steps: [roll],
  rollbackSteps: [shell({ identifier: 'undo', script: 'x' })],
});
ci({ identifier: 'build', runtime: 'Cloud', platform: { os: 'Linux', arch: 'Amd64' }, steps: [unit] });
custom({ identifier: 'c', steps: [shell({ identifier: 's', script: 'x' })] });
approval({ identifier: 'ok', steps: [harnessApproval({ identifier: 'a', approvers })] });
// @ts-expect-error a K8sRollingDeploy step cannot run in a CI stage
ci({ identifier: 'build', runtime: 'Cloud', platform: { os: 'Linux', arch: 'Amd64' }, steps: [unit, roll] });
// @ts-expect-error rollback steps are placed too
custom({ identifier: 'c', rollbackSteps: [roll] });
// @ts-expect-error a K8sRollingDeploy step cannot run in a Custom stage
custom({ identifier: 'c', steps: [roll] });
// @ts-expect-error a K8sRollingDeploy step cannot run in an Approval stage
approval({ identifier: 'ok', steps: [roll] });
// the catalogue's stages too
securityTests({ identifier: 'sto', steps: [unit] });
// @ts-expect-error a K8sRollingDeploy step cannot run in a SecurityTests stage
securityTests({ identifier: 'sto', steps: [roll] });

// --- a failure strategy's retry takes fixed values (the platform refuses an expression when it plans the run) ---
shell({
  identifier: 's',
  script: 'x',
  failureStrategies: [{ action: { type: 'Retry', spec: { retryCount: 2, retryIntervals: ['10s'] } } }],
});
shell({
  identifier: 's',
  script: 'x',
  // @ts-expect-error retryCount is a fixed number
  failureStrategies: [{ action: { type: 'Retry', spec: { retryCount: input() } } }],
});
// @ts-expect-error not a field of a Retry spec
shell({ identifier: 's', script: 'x', failureStrategies: [{ action: { type: 'Retry', spec: { retries: 2 } } }] });
shell({
  identifier: 's',
  script: 'x',
  failureStrategies: [
    {
      action: {
        type: 'Retry',
        spec: {
          retryCount: 1,
          onRetryFailure: {
            action: { type: 'ManualIntervention', spec: { timeout: '1h', onTimeout: { action: { type: 'Abort' } } } },
          },
        },
      },
    },
  ],
});
shell({
  identifier: 's',
  script: 'x',
  // @ts-expect-error the platform refuses a Retry after failed retries
  failureStrategies: [{ action: { type: 'Retry', spec: { onRetryFailure: { action: { type: 'Retry' } } } } }],
});
shell({
  identifier: 's',
  script: 'x',
  failureStrategies: [
    // @ts-expect-error the platform refuses a ManualIntervention after a timed-out one
    { action: { type: 'ManualIntervention', spec: { onTimeout: { action: { type: 'ManualIntervention' } } } } },
  ],
});
shell({
  identifier: 's',
  script: 'x',
  // @ts-expect-error an action after another is written in full ({ type }), as the platform reads it
  failureStrategies: [{ action: { type: 'Retry', spec: { onRetryFailure: { action: 'Abort' } } } }],
});

// A failure strategy in the wire form, as the YAML has it, types as the short form does.
shell({
  identifier: 'wire',
  script: 'echo',
  failureStrategies: [{ onFailure: { errors: ['AllErrors'], action: { type: 'Abort' } } }],
});
// prettier-ignore
// @ts-expect-error: "Abrot" is no failure action
shell({ identifier: 'wire', script: 'echo', failureStrategies: [{ onFailure: { errors: ['AllErrors'], action: { type: 'Abrot' } } }] });
