import { catalogStep, type SugarStepOptions } from './catalog/catalog-step.js';
import type { StepBuilder } from './step.js';
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

/** Options of `http()`: the common step options and the `Http` step's `spec` fields, flat. */
export type HttpStepOptions<Names extends string = never> = SugarStepOptions<typeof HTTP_SUGAR, Names>;

/**
 * Calls a URL from the delegate. `assertion` decides whether the answer counts as success; `outputVariables` keep parts of the response for later steps.
 *
 * @example
 * ```ts
 * http({ identifier: 'health', url: 'https://web.example.com/health', method: 'GET', assertion: '<+httpResponseCode> == 200' })
 * ```
 */
export const http: <const Names extends string = never>(options: HttpStepOptions<Names>) => StepBuilder<Names, 'Http'> =
  catalogStep(HTTP_SUGAR);

export const WAIT_SUGAR = declareStep('Wait', { order: ['duration', 'metadata'] });

/** Options of `wait()`: the common step options and the `Wait` step's `spec` fields, flat. */
export type WaitStepOptions<Names extends string = never> = SugarStepOptions<typeof WAIT_SUGAR, Names>;

/**
 * Pauses the stage for `duration` (for example `10m`); someone can end the wait early from the execution view.
 *
 * @example
 * ```ts
 * wait({ identifier: 'soak', duration: '10m' })
 * ```
 */
export const wait: <const Names extends string = never>(options: WaitStepOptions<Names>) => StepBuilder<Names, 'Wait'> =
  catalogStep(WAIT_SUGAR);

export const BARRIER_SUGAR = declareStep('Barrier', { order: ['barrierRef'] });

/** Options of `barrier()`: the common step options and the `Barrier` step's `spec` fields, flat. */
export type BarrierStepOptions<Names extends string = never> = SugarStepOptions<typeof BARRIER_SUGAR, Names>;

/**
 * Holds the stage at a barrier until every stage that uses the same barrier reaches it (declare it with the pipeline's `barriers` option).
 *
 * @example
 * ```ts
 * barrier({ identifier: 'syncDeploys', barrierRef: 'deployed' })
 * ```
 */
export const barrier: <const Names extends string = never>(
  options: BarrierStepOptions<Names>,
) => StepBuilder<Names, 'Barrier'> = catalogStep(BARRIER_SUGAR);

export const EMAIL_SUGAR = declareStep('Email', {
  order: [
    'to',
    'cc',
    'subject',
    'body',
    'ccUserGroups',
    'delegateSelectors',
    'fireAndForget',
    'inputVariables',
    'toUserGroups',
  ],
});

/** Options of `email()`: the common step options and the `Email` step's `spec` fields, flat. */
export type EmailStepOptions<Names extends string = never> = SugarStepOptions<typeof EMAIL_SUGAR, Names>;

/**
 * Sends an email to `to` (addresses separated by commas) with `subject` and `body`; expressions are resolved first.
 *
 * @example
 * ```ts
 * email({ identifier: 'mail', to: 'team@example.com', subject: 'Deployed <+pipeline.sequenceId>', body: 'Done.' })
 * ```
 */
export const email: <const Names extends string = never>(
  options: EmailStepOptions<Names>,
) => StepBuilder<Names, 'Email'> = catalogStep(EMAIL_SUGAR);
