/**
 * Type tests for the declarations of hand-written builders (src/dsl/catalog/sugar.ts, step-sugar.ts,
 * stage-sugar.ts), checked by `npm run typecheck`: a key order that leaves out a field of the type's spec, or
 * names one it lacks, does not compile; nor does a mapped builder's table without a mapping for each option.
 */
import { declareMappedStage } from '../../src/dsl/catalog/stage-sugar.js';
import { declareMappedStep, declareStep } from '../../src/dsl/catalog/step-sugar.js';
import { sameField } from '../../src/dsl/catalog/sugar.js';

// Every field of Wait's spec (duration, metadata), in order.
declareStep('Wait', { order: ['duration', 'metadata'] });
declareStep('Wait', { order: ['metadata', 'duration'], defaults: { duration: '10m' } });

// @ts-expect-error: the order leaves out "metadata"
declareStep('Wait', { order: ['duration'] });
// @ts-expect-error: "durration" is misspelt
declareStep('Wait', { order: ['durration', 'metadata'] });
// @ts-expect-error: a default for a field the spec lacks
declareStep('Wait', { order: ['duration', 'metadata'], defaults: { timeout: '10m' } });

// A field the platform takes beyond its published schema is placed only when declared as such.
declareStep('Barrier', { order: ['barrierRef', 'note'], outsideSchema: ['note'] });
// @ts-expect-error: "note" is no field of Barrier's spec
declareStep('Barrier', { order: ['barrierRef', 'note'] });

interface PauseOptions {
  readonly duration: string;
  readonly note?: string;
}
const declarePause = declareMappedStep<PauseOptions>();
const note = { key: 'metadata' as const, write: (text: string) => text, read: (wire: unknown) => wire };
declarePause('Wait', {
  builder: 'pause',
  order: ['duration', 'metadata'],
  fields: { duration: sameField('duration'), note },
});
declarePause('Wait', {
  builder: 'pause',
  order: ['duration', 'metadata'],
  defaults: { duration: '10m' },
  fields: { duration: sameField('duration'), note },
});

declarePause('Wait', {
  builder: 'pause',
  order: ['duration', 'metadata'],
  // @ts-expect-error: the option "note" has no mapping
  fields: { duration: sameField('duration') },
});
declarePause('Wait', {
  builder: 'pause',
  order: ['duration', 'metadata'],
  // @ts-expect-error: "notes" is no option
  fields: { duration: sameField('duration'), note, notes: note },
});
declarePause('Wait', {
  builder: 'pause',
  order: ['duration', 'metadata'],
  // @ts-expect-error: a mapping writes a field of the spec, and "comment" is none
  fields: { duration: sameField('comment'), note },
});
// @ts-expect-error: the order leaves out "metadata"
declarePause('Wait', { builder: 'pause', order: ['duration'], fields: { duration: sameField('duration'), note } });
declarePause('Wait', {
  builder: 'pause',
  order: ['duration', 'metadata'],
  // @ts-expect-error: a default must be a value its option takes (duration is text)
  defaults: { duration: 10 },
  fields: { duration: sameField('duration'), note },
});

// A stage builder's declaration is tied to its option type and the stage type's spec the same way.
interface ChildOptions {
  readonly pipeline: string;
  readonly org?: string;
}
const declareChild = declareMappedStage<ChildOptions>();
const childOrder = ['org', 'pipeline', 'project', 'inputSetReferences', 'inputs', 'outputs', 'pipelineInputs'] as const;
declareChild('Pipeline', {
  builder: 'child',
  order: childOrder,
  fields: { pipeline: sameField('pipeline'), org: sameField('org') },
});
// @ts-expect-error: the option "org" has no mapping
declareChild('Pipeline', { builder: 'child', order: childOrder, fields: { pipeline: sameField('pipeline') } });
declareChild('Pipeline', {
  builder: 'child',
  // @ts-expect-error: the order leaves out "pipelineInputs"
  order: ['org', 'pipeline', 'project', 'inputSetReferences', 'inputs', 'outputs'],
  fields: { pipeline: sameField('pipeline'), org: sameField('org') },
});
declareChild('Pipeline', {
  builder: 'child',
  order: childOrder,
  // @ts-expect-error: "execution" holds the stage's steps, not an option's value
  fields: { pipeline: sameField('execution'), org: sameField('org') },
});
