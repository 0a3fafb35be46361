// Writes a synthetic monorepo of N pipeline definition files, the shape issue 7 describes: one file per
// pipeline, 5 Deployment stages x 6 ShellScript steps, runtime inputs, failure strategies, tags, and a
// step library module every pipeline imports (as real monorepos share steps).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const STAGES = 5;
const STEPS = 6;

const project = `import { project } from 'pipewright';

export const platform = project({ identifier: 'platform', name: 'platform', org: 'default', color: '#0063F7' });
`;

// Scripts vary in what makes YAML quoting interesting: `#`, `: `, `<+...>`, multi-line blocks.
const library = `import { input, shell } from 'pipewright';

export const checkout = (id: string) =>
  shell({ identifier: id, name: 'checkout ' + id, script: 'git fetch origin && git checkout <+trigger.commitSha>', timeout: '5m' });

export const build = (id: string, target: string) =>
  shell({
    identifier: id,
    name: 'build ' + target,
    script: 'set -euo pipefail\\nmake ' + target + ' # build it\\necho "built <+pipeline.sequenceId>"\\n',
    env: { TARGET: target, REGION: input().default('eu-west-1'), DEBUG: 'no' },
    outputs: ['IMAGE_TAG'],
    timeout: '15m',
    failureStrategies: [{ errors: ['Timeout', 'Unknown'], action: { type: 'Retry', spec: { retryCount: 2, retryIntervals: ['10s'], onRetryFailure: { action: { type: 'MarkAsFailure' } } } } }],
  });

export const smoke = (id: string, url: string) =>
  shell({
    identifier: id,
    name: 'smoke ' + id,
    script: 'curl -fsS ' + url + '/health',
    env: { URL: url, RETRIES: '3', CHANNEL: '#deploys' },
    timeout: input().allowedValues('5m', '10m'),
  });

export const notify = (id: string) =>
  shell({ identifier: id, name: 'notify', script: 'echo "done: <+stage.name>"\\necho ok', delegateSelectors: ['primary'], timeout: '1m' });
`;

function pipelineFile(index) {
  const id = `svc_${String(index).padStart(5, '0')}`;
  const stages = [];
  for (let s = 0; s < STAGES; s++) {
    const steps = [];
    for (let t = 0; t < STEPS; t++) {
      const stepId = `s${s}_${t}`;
      const pick = t % 4;
      steps.push(
        pick === 0
          ? `checkout('${stepId}')`
          : pick === 1
            ? `build('${stepId}', '${id}-${t}')`
            : pick === 2
              ? `smoke('${stepId}', 'https://${id}.example.com:8443')`
              : `notify('${stepId}')`,
      );
    }
    stages.push(`    deployment({
      identifier: 'deploy_${s}',
      name: 'deploy ${s} - env ${s}',
      tags: { tier: '${s % 2 ? 'yes' : 'on'}', team: 'team-${index % 17}' },
      service: input(),
      environment: ${s === 0 ? `input().allowedValues('dev', 'staging', 'prod')` : `'env_${s}'`},
      infrastructure: { connector: input(), namespace: input().default('ns-${index}'), releaseName: 'release-${id}' },
      failureStrategies: [{ errors: 'AllErrors', action: 'StageRollback' }],
    }).step(
      ${steps.join(',\n      ')},
    )`);
  }
  return `import { deployment, input, pipeline } from 'pipewright';
import { platform } from '../project.js';
import { build, checkout, notify, smoke } from '../lib/steps.js';

export const ${id} = pipeline({
  identifier: '${id}',
  name: '${id} delivery',
  project: platform,
  tags: { owner: 'team-${index % 17}', 'cost-center': '0${index % 1000}' },
  variables: { version: input().default('1.0.${index}') },
})
  .stage(
${stages.join(',\n')},
  );
`;
}

/** Writes the monorepo under `dir` (replacing it); returns the entry glob. */
export async function generate(dir, count) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'pipelines'), { recursive: true });
  await mkdir(join(dir, 'lib'), { recursive: true });
  await writeFile(join(dir, 'project.ts'), project);
  await writeFile(join(dir, 'lib', 'steps.ts'), library);
  for (let i = 0; i < count; i++)
    await writeFile(join(dir, 'pipelines', `p${String(i).padStart(5, '0')}.ts`), pipelineFile(i));
  return [join(dir, 'project.ts'), join(dir, 'pipelines', '*.ts')];
}

export const pipelineSource = pipelineFile;

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'bench/.work/repo', count = '1000'] = process.argv.slice(2);
  await generate(dir, Number(count));
  console.log(`wrote ${count} pipelines to ${dir}`);
}
