import type { barrierSpec, emailSpec, httpSpec, waitSpec } from '../schema/steps-utility.js';
import { typedStep } from './typed-step.js';

/** Calls a URL from the delegate; `assertion` decides success, `outputVariables` keep parts of the response. */
export const http = typedStep<typeof httpSpec>('Http', [
  'url', 'method', 'headers', 'requestBody', 'assertion', 'inputVariables', 'outputVariables', 'certificate', 'certificateKey', 'delegateSelectors',
]);

/** Pauses for `duration` (e.g. 10m); can be ended early from the UI. */
export const wait = typedStep<typeof waitSpec>('Wait', ['duration']);

/** Waits at a barrier (declared with the pipeline's `barriers` option) until every stage using it arrives. */
export const barrier = typedStep<typeof barrierSpec>('Barrier', ['barrierRef']);

/** Sends an email to `to` (comma-separated) with `subject` and `body`. */
export const email = typedStep<typeof emailSpec>('Email', ['to', 'cc', 'subject', 'body']);
