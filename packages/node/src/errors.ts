/** Why a flag could not be evaluated (see {@link FlagEvaluationError}). */
export type FlagEvaluationFailure =
  /** `onlyEvaluateLocally`, but no definitions are loaded (no `personalApiKey`, or the first load failed). */
  | 'not_loaded'
  /** `onlyEvaluateLocally`, and the definitions cannot decide this flag (a property is missing, a cohort is static, ...). */
  | 'inconclusive'
  /** The service did not answer `/flags` within `featureFlagsRequestTimeout`. */
  | 'timeout'
  /** The service could not be reached. */
  | 'connection_error'
  /** The service answered `/flags` with an error status (see `status`), reported the flag as failed, or answered no flags object. */
  | 'api_error';

/**
 * Thrown by the flag methods when neither local evaluation nor the service can give an answer, so the
 * caller chooses a default. Example:
 *
 * ```ts
 * const on = await client.isFeatureEnabled('new-checkout', userId).catch(() => false);
 * ```
 */
export class FlagEvaluationError extends Error {
  override readonly name = 'FlagEvaluationError';

  constructor(
    readonly reason: FlagEvaluationFailure,
    message: string,
    /** The HTTP status, for `api_error`. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
