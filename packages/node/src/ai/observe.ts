import { AsyncLocalStorage } from 'node:async_hooks';
import { splitOptions } from './capture';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- provider payloads

/** What a wrapper does with one call's outcome. Its hooks may throw: they are isolated from the caller. */
export interface CallObserver<R, C> {
  /** A non-streamed result. */
  result(result: R): void;
  /** The request failed before any result (HTTP error, connection failure). */
  failed(error: unknown): void;
  /** Each streamed chunk, in order. */
  chunk(chunk: C): void;
  /** The stream ended: `error` when it failed halfway; `undefined` when it completed or was abandoned. */
  ended(error: unknown): void;
}

const safely = (fn: () => void) => {
  try {
    fn();
  } catch {
    // Never into the caller: see CallObserver.
  }
};

const isStream = (value: unknown): value is AsyncIterable<unknown> & { controller?: unknown } =>
  value !== null && typeof value === 'object' && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function' && 'controller' in value;

/**
 * Observes the SDK's promise without replacing it: the caller keeps the SDK's own `APIPromise` (with
 * `withResponse()`, `asResponse()`), its result object and its error instance. The observer's handlers are
 * attached first, so a stream is instrumented before the caller can iterate it.
 */
export function observeCall<R, C>(promise: PromiseLike<unknown>, observer: CallObserver<R, C>): void {
  // The trace or span of the call, not of wherever its stream happens to be read.
  const inCallScope = AsyncLocalStorage.snapshot();
  const scoped: CallObserver<R, C> = {
    result: (r) => inCallScope(() => observer.result(r)),
    failed: (e) => inCallScope(() => observer.failed(e)),
    chunk: (c) => observer.chunk(c),
    ended: (e) => inCallScope(() => observer.ended(e)),
  };
  promise.then(
    (value) => {
      if (isStream(value)) instrumentStream(value as AsyncIterable<C>, scoped);
      else safely(() => scoped.result(value as R));
    },
    (error: unknown) => safely(() => scoped.failed(error)),
  );
}

/**
 * Wraps the stream's own iterator on the instance: the caller's object stays the SDK's `Stream` (tee,
 * toReadableStream, controller), and each chunk is seen as the caller reads it.
 */
function instrumentStream<C>(stream: AsyncIterable<C>, observer: CallObserver<unknown, C>): void {
  const original = stream[Symbol.asyncIterator].bind(stream);
  let finished = false;
  const end = (error: unknown) => {
    if (finished) return;
    finished = true;
    safely(() => observer.ended(error));
  };
  Object.defineProperty(stream, Symbol.asyncIterator, {
    configurable: true,
    writable: true,
    value: () => {
      const it = original();
      const wrapped: AsyncIterator<C> = {
        next: async () => {
          let step: IteratorResult<C>;
          try {
            step = await it.next();
          } catch (error) {
            end(error);
            throw error;
          }
          if (step.done) end(undefined);
          else safely(() => observer.chunk(step.value));
          return step;
        },
        return: async (value?: unknown) => {
          end(undefined);
          return it.return ? it.return(value) : { done: true, value: value as C };
        },
        throw: async (error?: unknown) => {
          end(error);
          if (it.throw) return it.throw(error);
          throw error;
        },
      };
      return wrapped;
    },
  });
}

type Create = (body: Json, requestOptions?: unknown) => PromiseLike<unknown>;

/** Replaces `resource.create` on the instance with one that observes each call. */
export function instrument(resource: { create: Create } | undefined, observe: (body: Json, call: PromiseLike<unknown>, start: number) => void): void {
  if (!resource || typeof resource.create !== 'function') return;
  const create = resource.create.bind(resource);
  resource.create = function (this: unknown, body: Json, requestOptions?: unknown) {
    const start = performance.now();
    const { request } = splitOptions(body);
    const call = create(request, requestOptions);
    try {
      observe(body, call, start);
    } catch {
      // The call goes on unobserved rather than fail.
    }
    return call;
  } as Create;
}
