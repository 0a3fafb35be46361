import { pipeline, stage, step } from 'pipewright';
import { appProject } from './project.js';

// The platform's own CI pipeline doing what .github/workflows/pipewright.yml does: on every build,
// check that out/ matches the definitions; on main, publish them. Use one or the other.
// Before running it, create in the project a Git connector for your repository and a secret
// `harness_api_key` holding a platform API key, and pick them when the run asks for inputs.
export const pipewrightCi = pipeline({
  identifier: 'pipewright_ci',
  name: 'pipewright ci',
  project: appProject,
  properties: {
    ci: { codebase: { connectorRef: '<+input>', repoName: '<+input>', build: '<+input>' } },
  },
}).stage(
  stage({
    identifier: 'compile_and_publish',
    name: 'compile and publish',
    type: 'CI',
    spec: {
      cloneCodebase: true,
      platform: { os: 'Linux', arch: 'Amd64' },
      runtime: { type: 'Cloud', spec: {} },
    },
    steps: [
      step({
        identifier: 'check',
        name: 'compile --check',
        type: 'Run',
        spec: {
          connectorRef: 'account.harnessImage',
          image: 'node:20',
          shell: 'Sh',
          command: 'npm ci\nnpx pipewright compile --check --typecheck',
        },
      }),
      step({
        identifier: 'publish',
        name: 'publish',
        type: 'Run',
        when: { stageStatus: 'Success', condition: '<+codebase.branch> == "main"' },
        spec: {
          connectorRef: 'account.harnessImage',
          image: 'node:20',
          shell: 'Sh',
          command: 'npx pipewright publish',
          envVariables: {
            HARNESS_API_KEY: '<+secrets.getValue("harness_api_key")>',
            HARNESS_ACCOUNT_ID: '<+account.identifier>',
          },
        },
      }),
    ],
  }),
);
