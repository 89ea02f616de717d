/**
 * Domain errors: what services and stores throw when a rule refuses a request. They know nothing of HTTP;
 * the error handler (http/error-handler.ts) turns each kind into a status, headers and `{type, code, detail, attr}`.
 */
export abstract class DomainError extends Error {
  constructor(
    /** A stable machine-readable reason, e.g. `unique`, `required`, `event_too_large`. */
    readonly code: string,
    /** The human-readable reason. */
    readonly detail: string,
    /** The field the error is about, as a path joined with `__` (`batch__3__uuid`), or null. */
    readonly attr: string | null = null,
  ) {
    super(detail);
  }
}

/** The input breaks a rule (a field is missing, malformed, not unique, …). */
export class ValidationError extends DomainError {
  constructor(detail: string, attr: string | null = null, code = 'invalid_input') {
    super(code, detail, attr);
  }
}

/** The thing asked for does not exist (in this project). */
export class NotFoundError extends DomainError {
  constructor(detail = 'Not found.') {
    super('not_found', detail);
  }
}

/** The request cannot be done in the current state of the thing it is about (a feature in draft, say). */
export class ConflictError extends DomainError {
  constructor(detail: string, attr: string | null = null) {
    super('conflict', detail, attr);
  }
}

/** The credentials given cannot be used for this request (e.g. events naming different project tokens). */
export class UnauthenticatedError extends DomainError {}

/** Who asks may not do this (an admin making an owner, a second first account). */
export class ForbiddenError extends DomainError {
  constructor(detail: string, code = 'permission_denied') {
    super(code, detail);
  }
}

/** A part of the request is larger than the domain accepts (an event over the size limit). */
export class TooLargeError extends DomainError {}

/** Too much work is waiting: nothing was done, the client should retry in a moment. */
export class OverloadedError extends DomainError {
  constructor(detail: string) {
    super('overloaded', detail);
  }
}
