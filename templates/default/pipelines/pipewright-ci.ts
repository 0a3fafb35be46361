import { ci, expr, input, pipeline, run } from 'pipewright';
import { appProject } from './project.js';

// The platform's own CI pipeline doing what .github/workflows/pipewright.yml does: on every build, check
// that out/ matches the definitions; on main, publish them. Use one or the other.
// Before running it, create in the project a Git connector for your repository and a secret
// `harness_api_key` holding a platform API key; the run asks for the connector, repository and branch.
export const pipewrightCi = pipeline({
  identifier: 'pipewright_ci',
  name: 'pipewright ci',
  project: appProject,
  codebase: { connectorRef: input(), repoName: input(), build: input() },
}).stage(
  ci({
    identifier: 'compile_and_publish',
    name: 'compile and publish',
    cloneCodebase: true,
    platform: { os: 'Linux', arch: 'Amd64' },
    runtime: 'Cloud',
    steps: [
      run({
        identifier: 'check',
        name: 'compile --check',
        connectorRef: 'account.harnessImage',
        image: 'node:20',
        shell: 'Sh',
        command: 'npm ci\nnpx pipewright compile --check --typecheck',
      }),
      run({
        identifier: 'publish',
        name: 'publish',
        // Only builds of main publish; other branches and pull requests stop after the check.
        when: { stageStatus: 'Success', condition: '<+codebase.branch> == "main"' },
        connectorRef: 'account.harnessImage',
        image: 'node:20',
        shell: 'Sh',
        command: 'npx pipewright publish',
        envVariables: {
          HARNESS_API_KEY: expr.secret('harness_api_key'),
          HARNESS_ACCOUNT_ID: '<+account.identifier>',
          // The platform's SaaS address; change it for a self-managed platform.
          HARNESS_BASE_URL: 'https://app.harness.io',
        },
      }),
    ],
  }),
);
