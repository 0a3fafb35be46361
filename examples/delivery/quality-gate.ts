import { shell, stage, template } from 'pipewright';
import { delivery } from './platform.js';

/**
 * One stage template, version v1, used by all three pipelines in pipelines.ts: a change to the gate is one
 * change here, and a new versionLabel lets the pipelines move to it one by one.
 */
export const qualityGate = template.stage({
  identifier: 'quality_gate',
  name: 'Quality gate',
  project: delivery,
  versionLabel: 'v1',
  spec: stage({ identifier: 'quality_gate', type: 'Custom' }).step(
    shell({ identifier: 'lint_and_test', name: 'Lint and test', script: 'make lint test', timeout: '15m' }),
  ),
});
