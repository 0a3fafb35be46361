import { raw } from 'pipewright';

/** The API pipeline's runtime input filled in once, and a nightly run that uses it. */
export const nightlyInputs = raw.inputSet({
  inputSet: {
    name: 'Nightly',
    identifier: 'nightly',
    orgIdentifier: 'default',
    projectIdentifier: 'delivery',
    tags: {},
    pipeline: { identifier: 'checkout_api', variables: [{ name: 'target', type: 'String', value: 'staging' }] },
  },
});

export const nightly = raw.trigger({
  trigger: {
    name: 'Nightly',
    identifier: 'nightly',
    enabled: true,
    orgIdentifier: 'default',
    projectIdentifier: 'delivery',
    pipelineIdentifier: 'checkout_api',
    source: { type: 'Scheduled', spec: { type: 'Cron', spec: { expression: '0 2 * * *', type: 'UNIX' } } },
    inputSetRefs: ['nightly'],
  },
});
