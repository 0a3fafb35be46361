import { expectTypeOf } from 'vitest';
import { input, pipeline, type VariableOption } from '../../src/index.js';

// A variable in full: `default`, `required`, `description` and `metadata`, the default typed by the variable's type.
pipeline({
  identifier: 'p',
  project: 'web',
  variables: {
    region: { type: 'String', value: input(), default: 'eu', required: true, description: 'where' },
    replicas: { type: 'Number', value: input(), default: 3 },
    token: { type: 'Secret', value: input(), default: 'account.token', metadata: 'm' },
    plain: 'text',
    count: 2,
  },
});

// @ts-expect-error: a Number variable's default is a number
pipeline({ identifier: 'p', project: 'web', variables: { n: { type: 'Number', value: 1, default: 'three' } } });
// @ts-expect-error: a String variable's default is text
pipeline({ identifier: 'p', project: 'web', variables: { s: { type: 'String', value: 'x', default: 3 } } });
// @ts-expect-error: required is a boolean
pipeline({ identifier: 'p', project: 'web', variables: { s: { type: 'String', value: 'x', required: 'yes' } } });
// @ts-expect-error: a variable has no allowedValues option
pipeline({ identifier: 'p', project: 'web', variables: { s: { type: 'String', value: 'x', allowedValues: ['a'] } } });

expectTypeOf<{ type: 'Number'; value: number; default: number }>().toExtend<VariableOption>();
expectTypeOf<{ type: 'Number'; value: number; default: string }>().not.toExtend<VariableOption>();

// A Number variable takes a number, input() or an expression; other text is a type error.
pipeline({ identifier: 'n', project: 'web', variables: { replicas: { type: 'Number', value: 3 } } });
pipeline({
  identifier: 'n',
  project: 'web',
  variables: { replicas: { type: 'Number', value: '<+pipeline.sequenceId>' } },
});
// @ts-expect-error: "abc" is not a number
pipeline({ identifier: 'n', project: 'web', variables: { replicas: { type: 'Number', value: 'abc' } } });
