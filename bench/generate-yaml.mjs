// Writes N pipeline YAML documents shaped like the ones teams keep in Git (the patterns ../shared/corpus shows):
// comments above stages and steps, a CI stage with codebase and Run steps, a Deployment stage with shell scripts,
// a step group and rollback steps, an approval, runtime inputs, CRLF line ends on every tenth file, codebase
// sparseCheckout and cache override on every fourth, and on every tenth a field the builders' types refuse (an
// SSCA `slsa_provenance` on the CI stage: about the share of corpus pipelines, 18 of 170, whose import falls back
// somewhere), so import falls back for that part. The input of the `import --mode project` workload.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const script = (n) =>
  Array.from(
    { length: 12 },
    (_, i) => `                          echo "step ${i} of <+pipeline.sequenceId>" # ${n}`,
  ).join('\n');

function pipelineYaml(index) {
  const id = `svc_${String(index).padStart(5, '0')}`;
  const shellStep = (sid, extra = '') => `              # ${sid}: runs on the delegate
              - step:
                  type: ShellScript
                  name: ${sid} script
                  identifier: ${sid}
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: |-
${script(sid)}
                    environmentVariables:
                      - name: REGION
                        type: String
                        value: <+input>.default(eu-west-1)
                    outputVariables: []
                  timeout: 10m${extra}`;
  return `# ${id}: delivery pipeline of team ${index % 17}
pipeline:
  name: ${id} delivery
  identifier: ${id}
  projectIdentifier: platform
  orgIdentifier: default
  tags:
    owner: team-${index % 17}
  properties:
    ci:
      codebase:
        connectorRef: github_${index % 7}
        repoName: ${id}
        build: <+input>${index % 4 === 3 ? '\n        sparseCheckout: []' : ''}
  stages:
    # build and test
    - stage:
        name: build
        identifier: build
        type: CI
        spec:
          cloneCodebase: true
          caching:
            enabled: true${index % 4 === 3 ? '\n            override: false' : ''}${index % 10 === 5 ? '\n          slsa_provenance:\n            enabled: false' : ''}
          platform:
            os: Linux
            arch: Amd64
          runtime:
            type: Cloud
            spec: {}
          execution:
            steps:
              - step:
                  type: Run
                  name: test
                  identifier: test
                  spec:
                    shell: Sh
                    command: |-
                      npm ci
                      npm test -- --shard=${index % 4}
                    reports:
                      type: JUnit
                      spec:
                        paths:
                          - reports/*.xml
              - parallel:
                  - step:
                      type: Run
                      name: lint
                      identifier: lint
                      spec:
                        shell: Sh
                        command: npm run lint
                  - step:
                      type: Run
                      name: audit
                      identifier: audit
                      spec:
                        shell: Sh
                        command: npm audit --audit-level=high
    - stage:
        name: deploy
        identifier: deploy
        description: ""
        type: Deployment
        spec:
          deploymentType: Kubernetes
          service:
            serviceRef: ${id}
          environment:
            environmentRef: <+input>
            deployToAll: false
            infrastructureDefinitions: <+input>
          execution:
            steps:
${shellStep('prepare')}
              - stepGroup:
                  name: rollout
                  identifier: rollout
                  steps:
                    - step:
                        type: K8sRollingDeploy
                        name: rolling
                        identifier: rolling
                        spec:
                          skipDryRun: false
                          pruningEnabled: false
                        timeout: 10m
${shellStep(
  'verify',
  `
                  failureStrategies:
                    - onFailure:
                        errors:
                          - AllErrors
                        action:
                          type: Ignore`,
).replace(/^/gm, '      ')}
            rollbackSteps:
              - step:
                  type: K8sRollingRollback
                  name: rollback
                  identifier: rollback
                  spec:
                    pruningEnabled: false
                  timeout: 10m
        failureStrategies:
          - onFailure:
              errors:
                - AllErrors
              action:
                type: StageRollback
    - stage:
        name: approve
        identifier: approve
        type: Approval
        spec:
          execution:
            steps:
              - step:
                  type: HarnessApproval
                  name: approve
                  identifier: approve
                  spec:
                    approvalMessage: Promote ${id}?
                    includePipelineExecutionHistory: true
                    approvers:
                      userGroups:
                        - release_managers
                      minimumCount: 1
                      disallowPipelineExecutor: false
                    approverInputs: []
                  timeout: 1d
  variables:
    - name: version
      type: String
      value: <+input>.default(1.0.${index})
`;
}

/** Writes N pipeline documents under `dir` (replacing it), one file each; returns the folder. */
export async function generateYaml(dir, count) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const text = pipelineYaml(i);
    await writeFile(
      join(dir, `p${String(i).padStart(5, '0')}.yaml`),
      i % 10 === 9 ? text.replace(/\n/g, '\r\n') : text,
    );
  }
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'bench/.work/yaml', count = '1000'] = process.argv.slice(2);
  await generateYaml(dir, Number(count));
  console.log(`wrote ${count} pipeline documents to ${dir}`);
}
