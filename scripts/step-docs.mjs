/**
 * Hover docs of the generated step builders, in our own words (never the schema's descriptions): a sentence
 * or two on what the step does on the platform, and a small example. scripts/generate-catalog.mjs writes them
 * as JSDoc on each builder in src/dsl/catalog/generated/builders.ts; the rest get a generic line. They cover
 * the step types the corpus uses most (`node scripts/corpus-step-types.mjs 45`) that have no hand-written
 * builder (those carry their docs in their own modules). test/editor-hovers.test.ts type-checks every example.
 */
export const STEP_DOCS = {
  ShellScript: {
    summary:
      'Runs a Bash or PowerShell script on the delegate or on a target host. `shell()` is the friendlier form of the same step.',
    example:
      "shellScript({ identifier: 'hello', shell: 'Bash', source: { type: 'Inline', spec: { script: 'echo hello' } } })",
  },
  Command: {
    summary:
      'Runs command units (copy an artifact, download, run a script) on each host of an SSH or WinRM deployment.',
    example:
      "command({\n  identifier: 'install',\n  onDelegate: false,\n  commandUnits: [{ identifier: 'run', name: 'Run', type: 'Script', spec: { shell: 'Bash', source: { type: 'Inline', spec: { script: './install.sh' } } } }],\n})",
  },
  K8sCanaryDelete: {
    summary:
      'Removes the canary workload a K8sCanaryDeploy step created; usually after verification, and again in rollback.',
    example: "k8sCanaryDelete({ identifier: 'canaryDelete' })",
  },
  K8sBGSwapServices: {
    summary: 'Points the primary Kubernetes service at the stage (new) colour of a blue/green deployment.',
    example: "k8sBGSwapServices({ identifier: 'swap' })",
  },
  K8sDelete: {
    summary: 'Deletes Kubernetes resources: by name, by manifest path, or the whole release.',
    example:
      "k8sDelete({ identifier: 'cleanup', deleteResources: { type: 'ReleaseName', spec: { deleteNamespace: false } } })",
  },
  K8sScale: {
    summary: 'Scales a workload of the release to a number or a percentage of instances.',
    example:
      "k8sScale({ identifier: 'scale', workload: 'Deployment/web', instanceSelection: { type: 'Count', spec: { count: 3 } } })",
  },
  HelmRollback: {
    summary: 'Rolls a native Helm release back to the revision before this deployment.',
    example: "helmRollback({ identifier: 'helmRollback' })",
  },
  TerraformPlan: {
    summary:
      'Runs `terraform plan` under a provisioner identifier; a later TerraformApply with the same identifier can apply the saved plan.',
    example:
      "terraformPlan({\n  identifier: 'plan',\n  provisionerIdentifier: 'network',\n  configuration: {\n    command: 'Apply',\n    configFiles: { store: { type: 'Harness', spec: { file: '/terraform/network/main.tf' } } },\n    secretManagerRef: 'harnessSecretManager',\n  },\n})",
  },
  TerraformApply: {
    summary:
      'Applies Terraform configuration: given inline, or the plan a TerraformPlan step saved under the same provisioner identifier.',
    example:
      "terraformApply({ identifier: 'apply', provisionerIdentifier: 'network', configuration: { type: 'InheritFromPlan' } })",
  },
  TerraformDestroy: {
    summary: 'Destroys the resources a Terraform provisioner identifier manages.',
    example:
      "terraformDestroy({ identifier: 'destroy', provisionerIdentifier: 'network', configuration: { type: 'InheritFromApply' } })",
  },
  TerraformRollback: {
    summary: 'Returns Terraform state to what the last successful apply of a provisioner identifier left.',
    example: "terraformRollback({ identifier: 'rollback', provisionerIdentifier: 'network' })",
  },
  IACMTerraformPlugin: {
    summary: 'Runs one Terraform command (init, plan, apply, destroy, ...) against the workspace of an IaCM stage.',
    example: "iacmTerraformPlugin({ identifier: 'plan', command: 'plan' })",
  },
  IACMOpenTofuPlugin: {
    summary: 'Runs one OpenTofu command (init, plan, apply, ...) against the workspace of an IaCM stage.',
    example: "iacmOpenTofuPlugin({ identifier: 'apply', command: 'apply' })",
  },
  IACMApproval: {
    summary: 'Stops an IaCM stage until someone approves the plan the previous step produced.',
    example: "iacmApproval({ identifier: 'approvePlan' })",
  },
  Verify: {
    summary:
      'Continuous verification: watches the health sources of the monitored service after a deploy and fails the step (or rolls back) when they regress.',
    // `type` and `spec` are common step options' names too: the spec's own go under `spec`.
    example:
      "verify({ identifier: 'verify', spec: { type: 'Rolling', spec: { sensitivity: 'MEDIUM', duration: '10m' } } })",
  },
  MergePR: {
    summary: 'Merges the pull request an earlier GitOps step opened in the release repository.',
    example: "mergePR({ identifier: 'merge', deleteSourceBranch: true })",
  },
  RevertPR: {
    summary: 'Opens a pull request that reverts a commit of the GitOps release repository (the rollback of an update).',
    example:
      "revertPR({ identifier: 'revert', commitId: '<+pipeline.stages.deploy.spec.execution.steps.merge.output.commitId>' })",
  },
  GitClone: {
    summary: 'Clones a repository other than the codebase into the workspace of a CI stage.',
    example:
      "gitClone({ identifier: 'cloneCharts', connectorRef: 'github', repoName: 'charts', build: { type: 'branch', spec: { branch: 'main' } } })",
  },
  GitOpsUpdateReleaseRepo: {
    summary:
      'Writes new values for each cluster into the GitOps release repository and opens a pull request with them.',
    example:
      "gitOpsUpdateReleaseRepo({ identifier: 'update', variables: [{ name: 'image_tag', type: 'String', value: '<+artifact.tag>' }] })",
  },
  GitOpsSync: {
    summary: 'Asks the GitOps agent to sync applications to the state of their repositories.',
    example:
      "gitOpsSync({ identifier: 'sync', prune: false, dryRun: false, applyOnly: false, forceApply: false, applicationsList: [] })",
  },
  GitOpsFetchLinkedApps: {
    summary:
      'Finds the GitOps applications linked to the service and environment of the stage, for the sync steps after it.',
    example: "gitOpsFetchLinkedApps({ identifier: 'fetchApps' })",
  },
  GitOpsRollout: {
    summary: 'Rolls a GitOps application out through its rollout strategy and follows it to the end.',
    example: "gitOpsRollout({ identifier: 'rollout' })",
  },
  Container: {
    summary:
      'Runs a command in a container image on a Kubernetes cluster, from a CD or custom stage (no CI stage needed).',
    example:
      "container({\n  identifier: 'migrate',\n  image: 'flyway/flyway:10',\n  connectorRef: 'dockerhub',\n  command: 'flyway migrate',\n  infrastructure: { type: 'KubernetesDirect', spec: { connectorRef: 'cluster', namespace: 'jobs', resources: { limits: { cpu: '0.5', memory: '500Mi' } } } },\n})",
  },
  Background: {
    summary:
      'Starts a long-running service container (a database, a mock server) that the later steps of a CI stage can reach.',
    example:
      "background({ identifier: 'postgres', connectorRef: 'dockerhub', image: 'postgres:16', envVariables: { POSTGRES_PASSWORD: 'test' } })",
  },
  BuildAndPushECR: {
    summary: 'Builds a Docker image in a CI stage and pushes it to an Amazon ECR repository.',
    example:
      "buildAndPushECR({ identifier: 'push', connectorRef: 'aws', region: 'eu-west-1', account: '123456789012', imageName: 'web', tags: ['<+pipeline.sequenceId>'] })",
  },
  RestoreCacheS3: {
    summary: 'Restores a cache (dependencies, build output) that SaveCacheS3 stored in S3 under the same key.',
    example:
      "restoreCacheS3({ identifier: 'restore', connectorRef: 'aws', region: 'eu-west-1', bucket: 'ci-cache', key: 'npm-{{ checksum \"package-lock.json\" }}' })",
  },
  SaveCacheS3: {
    summary: 'Stores paths in S3 under a key, for RestoreCacheS3 in later runs.',
    example:
      "saveCacheS3({ identifier: 'save', connectorRef: 'aws', region: 'eu-west-1', bucket: 'ci-cache', key: 'npm-{{ checksum \"package-lock.json\" }}', sourcePaths: ['node_modules'] })",
  },
  RestoreCacheGCS: {
    summary: 'Restores a cache that SaveCacheGCS stored in Google Cloud Storage under the same key.',
    example: "restoreCacheGCS({ identifier: 'restore', connectorRef: 'gcp', bucket: 'ci-cache', key: 'deps' })",
  },
  SaveCacheGCS: {
    summary: 'Stores paths in Google Cloud Storage under a key, for RestoreCacheGCS in later runs.',
    example:
      "saveCacheGCS({ identifier: 'save', connectorRef: 'gcp', bucket: 'ci-cache', key: 'deps', sourcePaths: ['.m2'] })",
  },
  JiraCreate: {
    summary: 'Creates a Jira issue in a project, with the fields given.',
    example:
      "jiraCreate({ identifier: 'ticket', connectorRef: 'jira', projectKey: 'OPS', issueType: 'Task', fields: [{ name: 'Summary', value: 'Deploy <+pipeline.sequenceId>' }] })",
  },
  JiraUpdate: {
    summary: 'Changes fields or moves the status of an existing Jira issue.',
    example:
      "jiraUpdate({ identifier: 'close', connectorRef: 'jira', issueKey: 'OPS-42', transitionTo: { status: 'Done', transitionName: '' }, fields: [] })",
  },
  ServiceNowApproval: {
    summary:
      'Waits until a ServiceNow ticket meets the approval criteria (or the rejection criteria, which fail the step).',
    example:
      "serviceNowApproval({\n  identifier: 'change',\n  connectorRef: 'snow',\n  ticketType: 'change_request',\n  ticketNumber: 'CHG0042',\n  approvalCriteria: { type: 'KeyValues', spec: { matchAnyCondition: true, conditions: [{ key: 'state', operator: 'equals', value: 'Authorized' }] } },\n  rejectionCriteria: { type: 'KeyValues', spec: { matchAnyCondition: true, conditions: [] } },\n})",
  },
  Policy: {
    summary: 'Evaluates policy sets (OPA) against a JSON payload and fails the step when one of them denies it.',
    // `type` is a common step option's name too: the spec's own `type` goes under `spec`.
    example:
      "policy({ identifier: 'check', policySets: ['account.prod_rules'], spec: { type: 'Custom', policySpec: { payload: '{\"env\": \"prod\"}' } } })",
  },
  Queue: {
    summary: 'Lets one run at a time through a named resource key; later runs wait their turn at this step.',
    example: "queue({ identifier: 'lock', key: 'prod-deploy', scope: 'Pipeline' })",
  },
  SscaOrchestration: {
    summary: 'Generates an SBOM of an image or a repository with a tool such as Syft, and can attest it.',
    example:
      "sscaOrchestration({ identifier: 'sbom', source: { type: 'image', spec: { connector: 'dockerhub', image: 'acme/web:1.0' } }, tool: { type: 'Syft', spec: { format: 'spdx-json' } }, mode: 'generation' })",
  },
  Security: {
    summary: 'Runs a security scanner through the generic STO step, configured by key/value settings.',
    example:
      "security({ identifier: 'scan', privileged: true, settings: { policy_type: 'orchestratedScan', scan_type: 'repository', product_name: 'bandit' } })",
  },
  AquaTrivy: {
    summary: 'Scans a container image with Aqua Trivy and records the findings in STO.',
    example:
      "aquaTrivy({\n  identifier: 'trivy',\n  mode: 'orchestration',\n  config: 'default',\n  target: { type: 'container', name: 'web', variant: '<+pipeline.sequenceId>' },\n  advanced: { log: { level: 'info' } },\n  privileged: true,\n  image: { type: 'docker_v2', name: 'acme/web', tag: 'latest' },\n})",
  },
  FlagConfiguration: {
    summary: 'Changes a feature flag in one environment: turns it on or off, or updates its targeting rules.',
    example:
      "flagConfiguration({ identifier: 'enable', feature: 'new_checkout', environment: 'prod', instructions: [{ kind: 'setFeatureFlagState', identifier: 'on', type: 'SetFeatureFlagState', spec: { state: 'on' } }] })",
  },
  AsgBlueGreenDeploy: {
    summary: 'Deploys the new Auto Scaling group of an AWS ASG blue/green deployment behind the stage listener.',
    example: "asgBlueGreenDeploy({ identifier: 'deploy', loadBalancers: [], useAlreadyRunningInstances: false })",
  },
  EcsRollingDeploy: {
    summary: 'Rolling deployment of an ECS service from the task and service definitions of the stage service.',
    example: "ecsRollingDeploy({ identifier: 'deploy' })",
  },
  EcsRollingRollback: {
    summary: 'Rolls an ECS service back to the task definition it ran before the rolling deployment.',
    example: "ecsRollingRollback({ identifier: 'rollback' })",
  },
  EcsCanaryDelete: {
    summary: 'Deletes the canary ECS service an EcsCanaryDeploy step created.',
    example: "ecsCanaryDelete({ identifier: 'canaryDelete' })",
  },
};
