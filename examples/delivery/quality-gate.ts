import { raw } from 'pipewright';

/**
 * One stage template, version v1, used by all three pipelines in pipelines.ts: a change to the gate is one
 * change here, and a new versionLabel lets the pipelines move to it one by one.
 */
export const qualityGate = raw.template({
  template: {
    name: 'Quality gate',
    identifier: 'quality_gate',
    versionLabel: 'v1',
    orgIdentifier: 'default',
    projectIdentifier: 'delivery',
    type: 'Stage',
    tags: {},
    spec: {
      type: 'Custom',
      spec: {
        execution: {
          steps: [
            {
              step: {
                type: 'ShellScript',
                name: 'Lint and test',
                identifier: 'lint_and_test',
                spec: {
                  shell: 'Bash',
                  onDelegate: true,
                  source: { type: 'Inline', spec: { script: 'make lint test' } },
                  environmentVariables: [],
                  outputVariables: [],
                },
                timeout: '15m',
              },
            },
          ],
        },
      },
    },
  },
});
