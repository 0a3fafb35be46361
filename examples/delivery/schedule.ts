import { inputSet, trigger } from 'pipewright';
import { checkoutApi } from './pipelines.js';

/** The API pipeline's runtime input filled in once, and a nightly run that uses it. */
export const nightlyInputs = inputSet({
  identifier: 'nightly',
  name: 'Nightly',
  pipeline: checkoutApi,
  values: { variables: [{ name: 'target', type: 'String', value: 'staging' }] },
});

export const nightly = trigger.cron({
  identifier: 'nightly',
  name: 'Nightly',
  pipeline: checkoutApi,
  expression: '0 2 * * *',
  inputSets: [nightlyInputs],
});
