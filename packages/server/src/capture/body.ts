import { UnauthenticatedError, ValidationError } from '../errors';
import { isObject, type Properties } from '../json';

const nonEmpty = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * A decoded capture body, read once: its events and batch-level fields, or (with no events) why it has none,
 * which is thrown once the request's project is known (a request without a token is a 401 first).
 */
export interface CaptureBody {
  items: unknown[];
  batch: Properties;
  invalid?: ValidationError;
}

/** The events of a decoded capture body and its batch-level fields: one event, an array, or `{batch: [...]}`. */
export function eventsOf(body: unknown): CaptureBody {
  const invalid = (error: ValidationError): CaptureBody => ({ items: [], batch: {}, invalid: error });
  if (body === undefined || body === null || body === '') {
    return invalid(new ValidationError('No events: send an event, a list of events, or {"batch": [...]}.', null, 'required'));
  }
  if (Array.isArray(body)) return { items: body, batch: {} };
  if (!isObject(body)) return invalid(new ValidationError('The body is not an event or a batch of events.', null));
  if ('batch' in body) {
    if (!Array.isArray(body.batch)) return invalid(new ValidationError('batch must be a list of events.', 'batch'));
    return { items: body.batch, batch: body };
  }
  return { items: [body], batch: body };
}

/**
 * The project token of a capture request: the batch's `api_key` / `token`, else the query's, else the
 * events' own (`api_key`, `token`, or `properties.token`). Every token an event names must be that one.
 */
export function captureTokenOf({ items, batch }: CaptureBody, query: Properties): string | undefined {
  const own = (e: unknown) =>
    isObject(e) ? (nonEmpty(e.api_key) ?? nonEmpty(e.token) ?? (isObject(e.properties) ? nonEmpty(e.properties.token) : undefined)) : undefined;
  const token =
    nonEmpty(batch.api_key) ?? nonEmpty(batch.token) ?? nonEmpty(query.token) ?? nonEmpty(query.api_key) ?? items.map(own).find((t) => t !== undefined);
  if (token !== undefined && items.some((e) => own(e) !== undefined && own(e) !== token)) {
    throw new UnauthenticatedError('invalid_api_key', 'Events in one request must all use the same project API key.');
  }
  return token;
}
