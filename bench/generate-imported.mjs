// Writes N pipeline definition files shaped like what `pipewright import --mode project` writes (the code it
// makes of bench/generate-yaml.mjs's documents): each file self-contained, importing only from 'pipewright', no
// shared step library, stages and steps chained as `.stage(...).step(...)`, 12-line scripts as template literals,
// comments above calls. 5 stages x 6 steps: a CI stage (Run steps, a parallel pair), three Deployment stages
// (shell scripts, a step group, a rollback step, a failure strategy) and an Approval stage. The workload of
// issue 15: a migrated repository has no library shared between its files.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const script = (name) =>
  Array.from({ length: 12 }, (_, i) => `echo "step ${i} of <+pipeline.sequenceId>" # ${name}`).join('\n');

const shellCall = (id, indent, extra = '') => `${indent}// ${id}: runs on the delegate
${indent}shell({
${indent}  identifier: '${id}',
${indent}  name: '${id} script',
${indent}  script: \`${script(id)}\`,
${indent}  env: { REGION: input().default('eu-west-1') },
${indent}  outputs: [],
${indent}  timeout: '10m',${extra ? `\n${indent}  ${extra}` : ''}
${indent}})`;

const runCall = (id, command) => `run({
      identifier: '${id}',
      shell: 'Sh',
      command: ${command.includes('\n') ? `\`${command}\`` : `'${command}'`},
    })`;

function deploymentStage(id, index, s) {
  return `  .stage(
    deployment({
      identifier: 'deploy_${s}',
      name: 'deploy ${s}',
      deploymentType: 'Kubernetes',
      service: '${id}',
      environment: ${s === 1 ? 'input()' : `'env_${s}'`},
      deployToAll: false,
      infrastructureDefinitions: input(),
      failureStrategies: [{ action: 'StageRollback' }],
    }).rollbackStep(
      k8sRollingRollback({
        identifier: 'rollback_${s}',
        pruningEnabled: false,
        timeout: '10m',
      }),
    ),
  )
  .step(
${shellCall(`prepare_${s}`, '    ')},
  )
  .step(
    stepGroup({
      identifier: 'rollout_${s}',
      steps: [
        k8sRollingDeploy({
          identifier: 'rolling_${s}',
          skipDryRun: false,
          pruningEnabled: false,
          timeout: '10m',
        }),
${shellCall(`verify_${s}`, '        ', "failureStrategies: [{ action: 'Ignore' }],")},
      ],
    }),
  )
  .step(
${shellCall(`smoke_${s}`, '    ')},
  )
  .step(
${shellCall(`notify_${s}`, '    ')},
  )
  .step(
${shellCall(`record_${s}_${index % 7}`, '    ')},
  )`;
}

function pipelineFile(index) {
  const id = `svc_${String(index).padStart(5, '0')}`;
  const stages = [1, 2, 3].map((s) => deploymentStage(id, index, s)).join('\n');
  return `// Imported by pipewright from ../yaml/p${String(index).padStart(5, '0')}.yaml.
import {
  approval,
  ci,
  deployment,
  harnessApproval,
  input,
  k8sRollingDeploy,
  k8sRollingRollback,
  parallel,
  pipeline,
  run,
  shell,
  stepGroup,
} from 'pipewright';

// ${id}: delivery pipeline of team ${index % 17}
export const ${id.replace('_', '')} = pipeline({
  identifier: '${id}',
  name: '${id} delivery',
  project: 'platform',
  tags: { owner: 'team-${index % 17}' },
  codebase: {
    connectorRef: 'github_${index % 7}',
    repoName: '${id}',
    build: input(),
  },
  variables: { version: input().default('1.0.${index}') },
})
  .stage(
    // build and test
    ci({
      identifier: 'build',
      cloneCodebase: true,
      caching: { enabled: true },
      platform: {
        os: 'Linux',
        arch: 'Amd64',
      },
      runtime: 'Cloud',
    }),
  )
  .step(
    ${runCall('install', 'npm ci')},
  )
  .step(
    run({
      identifier: 'test',
      shell: 'Sh',
      command: \`npm test -- --shard=${index % 4}
npm run coverage\`,
      reports: {
        type: 'JUnit',
        spec: { paths: ['reports/*.xml'] },
      },
    }),
  )
  .step(
    parallel(
      ${runCall('lint', 'npm run lint')},
      ${runCall('audit', 'npm audit --audit-level=high')},
    ),
  )
  .step(
    ${runCall('package', 'npm pack')},
  )
  .step(
    ${runCall('publish', `npm publish --tag ${id}`)},
  )
${stages}
  .stage(approval({ identifier: 'approve' }))
  .step(
    harnessApproval({
      identifier: 'approve',
      approvalMessage: 'Promote ${id}?',
      includePipelineExecutionHistory: true,
      approvers: {
        userGroups: ['release_managers'],
        minimumCount: 1,
        disallowPipelineExecutor: false,
      },
      approverInputs: [],
      timeout: '1d',
    }),
  )
${[1, 2, 3, 4, 5].map((n) => `  .step(\n${shellCall(`announce_${n}`, '    ')},\n  )`).join('\n')};
`;
}

/** Writes the repository under `dir` (replacing it): a config and N pipeline files; returns the entry glob. */
export async function generateImported(dir, count) {
  await rm(dir, { recursive: true, force: true });
  const folder = join(dir, 'pipelines', 'default', 'platform');
  await mkdir(folder, { recursive: true });
  for (let i = 0; i < count; i++)
    await writeFile(join(folder, `svc_${String(i).padStart(5, '0')}.ts`), pipelineFile(i));
  return [join(dir, 'pipelines', '**', '*.ts')];
}

export const importedSource = pipelineFile;

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'bench/.work/imported', count = '300'] = process.argv.slice(2);
  await generateImported(dir, Number(count));
  console.log(`wrote ${count} imported-shape pipelines to ${dir}`);
}
