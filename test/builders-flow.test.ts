import { describe, expect, it } from 'vitest';
import {
  approval,
  barrier,
  custom,
  deployment,
  email,
  expr,
  harnessApproval,
  http,
  input,
  jiraApproval,
  k8sRollingDeploy,
  parallel,
  pipeline,
  pipelineStage,
  stageTemplate,
  step,
  stepGroup,
  stepTemplate,
  wait,
} from 'pipewright';
import { fixture, roundTrip } from './support/fixtures.js';

/** Each test rebuilds a corpus fixture with the builders: builder -> document -> YAML -> data equals the fixture. */
const payments = (identifier: string, name: string, more: object = {}) =>
  pipeline({ identifier, name, project: 'payments', ...more });

/** A ShellScript step exactly as written in the fixtures (shell()'s own defaults differ between fixtures). */
const script = (identifier: string, name: string, text: string, timeout: string, spec: object = {}) =>
  step({
    identifier,
    name,
    type: 'ShellScript',
    spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script: text } }, ...spec },
    timeout,
  });

const rolling = k8sRollingDeploy({ identifier: 'rolling', name: 'Rolling', skipDryRun: false, timeout: '10m' });
const prodEu = {
  deploymentType: 'Kubernetes' as const,
  service: 'payments_api',
  environment: 'prod',
  deployToAll: false,
  infrastructureDefinitions: ['prod_eu'],
};

describe('approval, custom and flow builders', () => {
  it('approval() with a full harnessApproval(), then a reference to its approver input', async () => {
    const built = payments('prod_release', 'prod release')
      .stage(
        approval({ identifier: 'approve_release', name: 'Approve release', tags: {} }).step(
          harnessApproval({
            identifier: 'release_approval',
            name: 'Release managers approve',
            approvalMessage: 'Please review the following information\nand approve the pipeline progression',
            includePipelineExecutionHistory: true,
            isAutoRejectEnabled: false,
            approvers: {
              userGroups: ['release_managers', 'account._account_all_users'],
              minimumCount: 2,
              disallowPipelineExecutor: true,
            },
            approverInputs: [{ name: 'change_window', defaultValue: 'tonight' }],
            autoApproval: {
              action: 'APPROVE',
              scheduledDeadline: { time: '2026-12-01 18:00 PM', timeZone: 'Europe/London' },
              comments: 'Nobody approved in time',
            },
            timeout: '3d',
          }),
        ),
      )
      .stage(
        deployment({ identifier: 'deploy_prod', name: 'Deploy prod', ...prodEu }).step(
          script(
            'record_window',
            'Record approver input',
            'echo "window <+pipeline.stages.approve_release.spec.execution.steps.release_approval.output.approverInputs.change_window>"',
            '5m',
          ),
          rolling,
        ),
      );
    expect(roundTrip(built)).toEqual(await fixture('approval-harness'));
  });

  it('jiraApproval() with key-value and JEXL criteria, then email()', async () => {
    const ticket = expr.pipeline.variable('change_ticket');
    const built = payments('change_managed_deploy', 'change managed deploy', {
      variables: { change_ticket: input() },
    }).stage(
      approval({ identifier: 'change_approval', name: 'Change approval' }).step(
        jiraApproval({
          identifier: 'wait_for_cab',
          name: 'Wait for CAB',
          connectorRef: 'jira_cloud',
          projectKey: 'CHG',
          issueType: 'Change',
          issueKey: ticket,
          approvalCriteria: {
            type: 'KeyValues',
            spec: {
              matchAnyCondition: false,
              conditions: [
                { key: 'Status', operator: 'equals', value: 'Approved' },
                { key: 'Risk', operator: 'in', value: 'Low,Medium' },
              ],
            },
          },
          rejectionCriteria: { type: 'Jexl', spec: { expression: '<+issue.Status> == "Rejected"' } },
          retryInterval: '1m',
          timeout: '1d',
        }),
        email({
          identifier: 'tell_team',
          name: 'Tell the team',
          to: 'payments-team@example.com',
          cc: 'cab@example.com',
          subject: expr`${ticket} approved`,
          body: expr`The change ${ticket} was approved; deployment starts now.`,
          timeout: '5m',
        }),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('approval-jira'));
  });

  it('custom() with http() steps, output variables and references to them', async () => {
    const built = payments('synthetic_checks', 'synthetic checks').stage(
      custom({ identifier: 'checks', name: 'Checks', tags: {} }).step(
        http({
          identifier: 'health',
          name: 'Health',
          url: 'https://api.payments.example.com/health',
          method: 'GET',
          headers: [{ key: 'Accept', value: 'application/json' }],
          assertion: '<+httpResponseCode> == 200',
          outputVariables: [{ name: 'version', type: 'String', value: '<+json.object(httpResponseBody).version>' }],
          timeout: '30s',
        }),
        http({
          identifier: 'register',
          name: 'Register deployment',
          url: 'https://deploys.example.com/api/deployments',
          method: 'POST',
          headers: [
            { key: 'Content-Type', value: 'application/json' },
            { key: 'Authorization', value: expr`Bearer ${expr.secret('deploys_token')}` },
          ],
          requestBody:
            '{"service": "payments-api", "version": "<+execution.steps.health.output.outputVariables.version>"}',
          assertion: '<+httpResponseCode> == 201',
          delegateSelectors: ['payments-delegate'],
          timeout: '1m',
        }),
        script('print_version', 'Print version', 'echo "<+steps.health.output.outputVariables.version>"', '1m', {
          environmentVariables: [],
          outputVariables: [],
        }),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('custom-http-checks'));
  });

  it('barriers on the pipeline, barrier() steps in parallel stages', async () => {
    const built = payments('coordinated_release', 'coordinated release', {
      barriers: [{ name: 'Schemas migrated', identifier: 'schemas_migrated' }],
    }).stage(
      parallel(
        custom({ identifier: 'database', name: 'Database' }).step(
          script('migrate', 'Migrate', './migrate.sh', '30m'),
          barrier({ identifier: 'migrated', name: 'Migrated', barrierRef: 'schemas_migrated', timeout: '1h' }),
        ),
        deployment({ identifier: 'application', name: 'Application', ...prodEu }).step(
          barrier({
            identifier: 'wait_for_schemas',
            name: 'Wait for schemas',
            barrierRef: 'schemas_migrated',
            timeout: '1h',
          }),
          rolling,
        ),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('barriers-parallel'));
  });

  it('pipelineStage() chains pipelines, with inputs, input sets, outputs and a when condition', async () => {
    const built = payments('release_train', 'release train')
      .stage(
        pipelineStage({
          identifier: 'build',
          name: 'Build',
          org: 'default',
          pipeline: 'api_image',
          project: 'payments',
          inputs: {
            identifier: 'api_image',
            properties: { ci: { codebase: { build: { type: 'branch', spec: { branch: 'main' } } } } },
          },
          outputs: { image_tag: expr.raw('pipeline.stages.build.variables.image_tag') },
        }),
      )
      .stage(
        pipelineStage({
          identifier: 'deploy',
          name: 'Deploy',
          org: 'default',
          pipeline: 'api_deploy',
          project: 'payments',
          inputSetReferences: ['prod_inputs'],
          inputs: {
            identifier: 'api_deploy',
            variables: [{ name: 'tag', type: 'String', value: '<+pipeline.stages.build.output.image_tag>' }],
          },
          when: { pipelineStatus: 'Success' },
        }),
      );
    expect(roundTrip(built)).toEqual(await fixture('chained-pipeline'));
  });

  it('stageTemplate(), stepTemplate() and a step group from a template', async () => {
    const built = payments('templated_delivery', 'templated delivery')
      .stage(
        stageTemplate({
          identifier: 'deploy_dev',
          name: 'Deploy dev',
          templateRef: 'org.k8s_rolling_stage',
          versionLabel: 'v3',
          templateInputs: {
            type: 'Deployment',
            spec: {
              service: { serviceRef: 'payments_api' },
              environment: { environmentRef: 'dev', infrastructureDefinitions: [{ identifier: 'dev_cluster' }] },
            },
          },
        }),
      )
      .stage(
        custom({ identifier: 'verify', name: 'Verify' }).step(
          stepTemplate({
            identifier: 'smoke_tests',
            name: 'Smoke tests',
            templateRef: 'account.smoke_tests',
            versionLabel: '2',
            templateInputs: {
              type: 'ShellScript',
              spec: {
                environmentVariables: [{ name: 'BASE_URL', type: 'String', value: 'https://dev.payments.example.com' }],
              },
              timeout: '15m',
            },
          }),
          stepGroup({
            identifier: 'security',
            name: 'Security',
            template: { templateRef: 'security_checks', versionLabel: 'v1' },
          }),
        ),
      );
    expect(roundTrip(built)).toEqual(await fixture('templates-stage-step'));
  });

  it('notificationRules on the pipeline', async () => {
    const built = payments('nightly_deploy', 'nightly deploy', {
      notificationRules: [
        {
          name: 'Failures to Slack',
          identifier: 'failures_to_slack',
          pipelineEvents: [{ type: 'PipelineFailed' }, { type: 'StageFailed', forStages: ['deploy'] }],
          notificationMethod: { type: 'Slack', spec: { userGroups: [], webhookUrl: expr.secret('slack_webhook') } },
          enabled: true,
        },
        {
          name: 'Summary email',
          identifier: 'summary_email',
          pipelineEvents: [{ type: 'PipelineEnd' }],
          notificationMethod: {
            type: 'Email',
            spec: { userGroups: ['payments_team'], recipients: ['payments-leads@example.com'] },
          },
          enabled: true,
        },
        {
          name: 'Page on-call',
          identifier: 'page_oncall',
          pipelineEvents: [{ type: 'StepFailed' }],
          notificationMethod: {
            type: 'PagerDuty',
            spec: { userGroups: [], integrationKey: expr.secret('pagerduty_key') },
          },
          enabled: false,
        },
      ],
    }).stage(
      deployment({
        identifier: 'deploy',
        name: 'Deploy',
        ...prodEu,
        environment: 'staging',
        infrastructureDefinitions: ['staging_cluster'],
      }).step(rolling),
    );
    expect(roundTrip(built)).toEqual(await fixture('notification-rules'));
  });

  it('when conditions on stages and steps', async () => {
    const built = payments('conditional_release', 'conditional release', {
      variables: { run_migrations: input().allowedValues('true', 'false') },
    })
      .stage(
        custom({
          identifier: 'migrate',
          name: 'Migrate',
          when: { pipelineStatus: 'Success', condition: '<+pipeline.variables.run_migrations> == "true"' },
        }).step(script('migrate_db', 'Migrate', './migrate.sh', '20m')),
      )
      .stage(
        custom({ identifier: 'cleanup', name: 'Cleanup' })
          .when({ pipelineStatus: 'All' })
          .step(
            step({
              identifier: 'report_failure',
              name: 'Report failure',
              type: 'ShellScript',
              spec: {
                shell: 'Bash',
                onDelegate: true,
                source: {
                  type: 'Inline',
                  spec: { script: 'echo "migration status <+pipeline.stages.migrate.status>"' },
                },
              },
              timeout: '5m',
              when: { stageStatus: 'All', condition: '<+pipeline.stages.migrate.status> == "FAILED"' },
            }),
          ),
      );
    expect(roundTrip(built)).toEqual(await fixture('conditional-execution'));
  });

  it('delegateSelectors and timeout on the pipeline, a stage, a step group and a step', async () => {
    const built = payments('on_prem_deploy', 'on prem deploy', { delegateSelectors: ['onprem'], timeout: '2h' }).stage(
      custom({ identifier: 'deploy', name: 'Deploy', delegateSelectors: ['onprem-linux'], timeout: '1h' }).step(
        stepGroup({
          identifier: 'datacenter_a',
          name: 'Datacenter A',
          delegateSelectors: ['dc-a'],
          timeout: '30m',
        }).step(
          script('restart_workers', 'Restart workers', 'systemctl restart payments-worker', '10m', {
            delegateSelectors: ['dc-a-primary'],
          }),
        ),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('delegate-selectors'));
  });

  it('variables on the pipeline, a stage and a step group, with a Secret and a Number', async () => {
    const built = payments('variables_demo', 'variables demo', {
      variables: {
        region: 'eu-west-1',
        api_token: { type: 'Secret', value: 'account.payments_api_token' },
        max_surge: 25,
      },
    }).stage(
      custom({
        identifier: 'prepare',
        name: 'Prepare',
        variables: { bucket: expr`payments-config-${expr.pipeline.variable('region')}`, attempts: 3 },
      }).step(
        stepGroup({ identifier: 'render_config', name: 'Render config', variables: { format: 'yaml' } }).step(
          script(
            'render',
            'Render',
            'echo "region=<+pipeline.variables.region>"\necho "bucket=<+stage.variables.bucket>"\necho "format=<+stepGroup.variables.format>"',
            '5m',
            {
              environmentVariables: [{ name: 'TOKEN', type: 'Secret', value: '<+pipeline.variables.api_token>' }],
              outputVariables: [{ name: 'CONFIG_PATH', type: 'String', value: 'CONFIG_PATH' }],
            },
          ),
        ),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('variables-everywhere'));
  });

  it('wait() and email() in a custom stage with a timeout', () => {
    const built = payments('w', 'w').stage(
      custom({ identifier: 's', timeout: '2h' }).step(
        wait({ identifier: 'pause', duration: input() }),
        email({ identifier: 'e', to: 'a@example.com', subject: 's', body: 'b' }),
      ),
    );
    expect((roundTrip(built) as any).pipeline.stages[0].stage).toEqual({
      name: 's',
      identifier: 's',
      type: 'Custom',
      spec: {
        execution: {
          steps: [
            { step: { type: 'Wait', name: 'pause', identifier: 'pause', spec: { duration: '<+input>' } } },
            {
              step: {
                type: 'Email',
                name: 'e',
                identifier: 'e',
                spec: { to: 'a@example.com', subject: 's', body: 'b' },
              },
            },
          ],
        },
      },
      timeout: '2h',
    });
  });

  it('stageIdentifiers lists the stages of a parallel group', () => {
    const built = payments('p', 'p').stage(
      custom({ identifier: 'a' }),
      parallel(custom({ identifier: 'b' }), custom({ identifier: 'c' })),
    );
    expect(built.stageIdentifiers).toEqual(['a', 'b', 'c']);
  });

  it('parallel() refuses to mix stages and steps, and pipeline.step() after a parallel group says what to do', () => {
    const s = custom({ identifier: 'a' });
    const w = wait({ identifier: 'w', duration: '1m' });
    expect(() => parallel(s as never, w as never)).toThrow('parallel(): pass only stages or only steps');
    expect(() =>
      payments('p', 'p')
        .stage(parallel(s, custom({ identifier: 'b' })))
        // @ts-expect-error: the types refuse it too (parallel(...) stages have no steps of their own)
        .step(w),
    ).toThrow(
      'pipeline "p".step(): the last stage takes no steps; parallel(...) stages have no steps of their own: add the steps to each stage before parallel(...)',
    );
  });
});
