import { catalogStep } from './catalog/catalog-step.js';
import { declareStep } from './catalog/step-sugar.js';

export const HTTP_SUGAR = declareStep('Http', {
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
  outsideSchema: ['inputVariables', 'certificate', 'certificateKey'],
});

/** Calls a URL from the delegate; `assertion` decides success, `outputVariables` keep parts of the response. */
export const http = catalogStep(HTTP_SUGAR);

export const WAIT_SUGAR = declareStep('Wait', { order: ['duration', 'metadata'] });

/** Pauses for `duration` (e.g. 10m); can be ended early from the UI. */
export const wait = catalogStep(WAIT_SUGAR);

export const BARRIER_SUGAR = declareStep('Barrier', { order: ['barrierRef'] });

/** Waits at a barrier (declared with the pipeline's `barriers` option) until every stage using it arrives. */
export const barrier = catalogStep(BARRIER_SUGAR);

export const EMAIL_SUGAR = declareStep('Email', {
  order: ['to', 'cc', 'subject', 'body', 'ccUserGroups', 'delegateSelectors', 'fireAndForget', 'inputVariables', 'toUserGroups'],
});

/** Sends an email to `to` (comma-separated) with `subject` and `body`. */
export const email = catalogStep(EMAIL_SUGAR);
