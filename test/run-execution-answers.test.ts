import { describe, expect, it } from 'vitest';
import {
  executeBody,
  executionSnapshot,
  executionUrl,
  inputTemplateOf,
  startedExecution,
} from '../src/platform/executions.js';

/** How the platform's execution answers are read (src/platform/executions.ts; docs/run.md has the sources). */

const REQUEST = 'GET /gateway/pipeline/api/pipelines/execution/v2/x';

const detail = (summary: Record<string, unknown>, nodeMap: Record<string, unknown> = {}) => ({
  pipelineExecutionSummary: { planExecutionId: 'x', status: 'Running', ...summary },
  executionGraph: { rootNodeId: 'a', nodeMap },
});

describe('executionSnapshot', () => {
  it('reads the stages of the layout (group STAGE only) and the steps of the graph (by their baseFqn)', () => {
    const snapshot = executionSnapshot(
      detail(
        {
          startTs: 1000,
          layoutNodeMap: {
            a: {
              nodeGroup: 'STAGE',
              nodeIdentifier: 'build',
              name: 'Build',
              nodeType: 'CI',
              status: 'Success',
              startTs: 1000,
              endTs: 2000,
            },
            b: {
              nodeGroup: 'STAGE',
              nodeIdentifier: 'ship',
              name: 'Ship',
              status: 'Failed',
              failureInfoDTO: { message: ' boom ' },
            },
            c: { nodeGroup: 'STRATEGY', nodeIdentifier: 'matrix', status: 'Running' },
          },
        },
        {
          s1: {
            identifier: 'push',
            name: 'Push',
            baseFqn: 'pipeline.stages.ship.spec.execution.steps.push',
            stepType: 'ShellScript',
            status: 'Failed',
            failureInfo: { message: 'exit 1' },
          },
          s2: {
            identifier: 'execution',
            baseFqn: 'pipeline.stages.ship.spec.execution',
            stepType: 'NG_SECTION',
            status: 'Failed',
          },
          s3: { identifier: 'ship', baseFqn: 'pipeline.stages.ship', stepType: 'CUSTOM_STAGE', status: 'Failed' },
        },
      ),
      REQUEST,
    );
    expect(snapshot).toEqual({
      planExecutionId: 'x',
      status: 'Running',
      startTs: 1000,
      stages: [
        { identifier: 'build', name: 'Build', status: 'Success', startTs: 1000, endTs: 2000, type: 'CI' },
        { identifier: 'ship', name: 'Ship', status: 'Failed', message: 'boom' },
      ],
      steps: [
        { identifier: 'push', name: 'Push', status: 'Failed', type: 'ShellScript', message: 'exit 1', stage: 'ship' },
      ],
    });
  });

  it('refuses an answer without a summary, a status, or with a node that is not an object with a status', () => {
    expect(() => executionSnapshot({}, REQUEST)).toThrow('data.pipelineExecutionSummary is nothing');
    expect(() => executionSnapshot(detail({ status: undefined }), REQUEST)).toThrow('has no status or planExecutionId');
    expect(() => executionSnapshot(detail({ layoutNodeMap: [] }), REQUEST)).toThrow('layoutNodeMap is an array');
    expect(() => executionSnapshot(detail({ layoutNodeMap: { a: 'Success' } }), REQUEST)).toThrow(
      'layoutNodeMap.a is a string, not an object',
    );
    expect(() => executionSnapshot(detail({}, { s: { identifier: 'x' } }), REQUEST)).toThrow(
      'executionGraph.nodeMap.s has no status',
    );
    expect(() => executionSnapshot(null, REQUEST)).toThrow(`the platform's answer to ${REQUEST} is malformed`);
  });
});

describe('the other answers and requests', () => {
  it('reads the execution id of an execute answer, and refuses one without it', () => {
    expect(startedExecution({ planExecution: { uuid: 'abc', status: 'RUNNING' } }, 'POST x')).toBe('abc');
    expect(() => startedExecution({ planExecution: {} }, 'POST x')).toThrow('data.planExecution has no uuid');
    expect(() => startedExecution({}, 'POST x')).toThrow('data.planExecution is nothing');
  });

  it('reads the runtime-input template: empty when the pipeline has none, text else', () => {
    expect(inputTemplateOf({ inputSetTemplateYaml: 'pipeline: {}' }, 'POST t')).toBe('pipeline: {}');
    expect(inputTemplateOf({ inputSetTemplateYaml: null }, 'POST t')).toBe('');
    expect(() => inputTemplateOf({ inputSetTemplateYaml: 3 }, 'POST t')).toThrow('not YAML text');
  });

  it('sends the YAML as the body, or with input sets the references and the YAML merged last', () => {
    expect(executeBody([], 'pipeline: {}\n')).toBe('pipeline: {}\n');
    expect(JSON.parse(executeBody(['a', 'b'], 'pipeline: {}\n'))).toEqual({
      inputSetReferences: ['a', 'b'],
      lastYamlToMerge: 'pipeline: {}\n',
    });
    expect(JSON.parse(executeBody(['a'], ''))).toEqual({ inputSetReferences: ['a'] });
  });

  it('links the execution page, its parts escaped', () => {
    expect(
      executionUrl('https://app.harness.io/', 'acc', {
        org: 'o',
        project: 'p q',
        pipeline: 'd',
        planExecutionId: 'e/1',
      }),
    ).toBe('https://app.harness.io/ng/account/acc/all/orgs/o/projects/p%20q/pipelines/d/executions/e%2F1/pipeline');
  });
});
