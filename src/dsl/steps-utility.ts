import { catalogStep } from './catalog/catalog-step.js';

/** Calls a URL from the delegate; `assertion` decides success, `outputVariables` keep parts of the response. */
export const http = catalogStep('Http', {
  order: [
    'url',
    'method',
    'headers',
    'requestBody',
    'assertion',
    'inputVariables',
    'outputVariables',
    'certificate',
    'certificateKey',
    'delegateSelectors',
  ],
});

/** Pauses for `duration` (e.g. 10m); can be ended early from the UI. */
export const wait = catalogStep('Wait', { order: ['duration'] });

/** Waits at a barrier (declared with the pipeline's `barriers` option) until every stage using it arrives. */
export const barrier = catalogStep('Barrier', { order: ['barrierRef'] });

/** Sends an email to `to` (comma-separated) with `subject` and `body`. */
export const email = catalogStep('Email', { order: ['to', 'cc', 'subject', 'body'] });
