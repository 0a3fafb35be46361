/**
 * Import walks the tree `lift` makes of a pipeline; each lifted node comes with the element the YAML reader
 * parsed (the very object), which comments and demotions are keyed on.
 */
import { describe, expect, it } from 'vitest';
import { lift } from '../src/ir/lift.js';
import { bodyOf, childrenAt } from '../src/import/lifted.js';

describe('lifted nodes beside their parsed elements', () => {
  const shell = { step: { type: 'ShellScript', name: 's', identifier: 's', spec: {} } };
  const inGroup = { step: { type: 'Wait', name: 'w', identifier: 'w', spec: { duration: '1m' } } };
  const group = { stepGroup: { name: 'g', identifier: 'g', steps: [inGroup] } };
  const odd = { step: { identifier: 'x' }, note: 'a key beside the wrapper' };
  const rollback = { step: { type: 'Wait', name: 'r', identifier: 'r', spec: { duration: '1m' } } };
  const stage = {
    stage: {
      name: 'a',
      identifier: 'a',
      type: 'Custom',
      spec: { execution: { steps: [shell, { parallel: [group, odd] }], rollbackSteps: [rollback] } },
    },
  };
  const document = { pipeline: { name: 'p', identifier: 'p', stages: [stage, { parallel: [] }] } };
  const root = { node: lift('pipeline', document), element: document };

  it('gives each list its children, each with the element as parsed', () => {
    const [first, second] = childrenAt(root, ['stages']);
    expect(first!.element).toBe(stage);
    expect(first!.node.kind).toBe('stage');
    expect(bodyOf(first!)).toBe(stage.stage);
    expect(second!.node.kind).toBe('parallel');
    expect(childrenAt(second!)).toEqual([]);
    const steps = childrenAt(first!, ['spec', 'execution', 'steps']);
    expect(steps.map((child) => child.element)).toEqual([shell, stage.stage.spec.execution.steps[1]]);
    expect(steps[0]!.element).toBe(shell);
    expect(childrenAt(first!, ['spec', 'execution', 'rollbackSteps'])[0]!.element).toBe(rollback);
  });

  it('keeps what lift keeps raw as raw, and reaches into parallel blocks and step groups', () => {
    const parallel = childrenAt(childrenAt(root, ['stages'])[0]!, ['spec', 'execution', 'steps'])[1]!;
    const [lifted, raw] = childrenAt(parallel);
    expect(lifted!.element).toBe(group);
    expect(lifted!.node.kind).toBe('stepGroup');
    expect(childrenAt(lifted!, ['steps'])[0]!.element).toBe(inGroup);
    expect(raw!.element).toBe(odd);
    expect(raw!.node.kind).toBe('raw');
  });
});
