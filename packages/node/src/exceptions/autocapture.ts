import type { CaptureMechanism } from './stack';

/** A client capturing uncaught exceptions and unhandled rejections (`enableExceptionAutocapture`). */
export interface AutocaptureTarget {
  /** Captures the exception (rate-limited); resolves once it is queued. Never rejects. */
  capture(error: unknown, mechanism: CaptureMechanism): Promise<void>;
  /** Sends what is queued, within `timeoutMs`. Never rejects. */
  shutdown(timeoutMs: number): Promise<void>;
}

/** How long a crashing process waits for its exception to reach the service, as posthog-node (2 s). */
const FATAL_FLUSH_MS = 2_000;
/** Exit even if sending hangs beyond the flush's own time limit. */
const FATAL_EXIT_MS = 3_000;

const UNCAUGHT: CaptureMechanism = { type: 'onuncaughtexception', handled: false };
const UNHANDLED: CaptureMechanism = { type: 'onunhandledrejection', handled: false };

/** Node's `--unhandled-rejections` mode. */
type RejectionMode = 'throw' | 'strict' | 'warn' | 'warn-with-error-code' | 'none';

interface State {
  targets: Set<AutocaptureTarget>;
  mode: RejectionMode;
  exiting: boolean;
  remove(): void;
}

/**
 * One set of process listeners for every client in the process, kept on `globalThis` so that a second copy of
 * this module (ESM and CommonJS builds both loaded) shares it instead of adding its own.
 */
const STATE = Symbol.for('service-node.exception-autocapture');
const OURS = Symbol.for('service-node.exception-autocapture.listener');
type Global = typeof globalThis & { [STATE]?: State };

/**
 * Starts capturing uncaught exceptions and unhandled rejections for `target`; returns the function that stops
 * (called by the client's `shutdown`). The listeners go when the last client stops.
 *
 * What Node does is kept:
 * - An uncaught exception (or a rejection Node raises as one) with no `uncaughtException` listener of the app:
 *   captured, printed to stderr, sent within 2 s, then the process exits with code 1, as posthog-node does.
 *   When the app has its own `uncaughtException` listener, it decides: the exception is only captured.
 * - An unhandled rejection: Node's default (`--unhandled-rejections=throw`) raises it as an uncaught exception
 *   unless the app listens to `unhandledRejection`. Our listener would turn that off, so when it is the only one
 *   it raises the rejection itself (the error Node would make of a reason that is not an Error), with
 *   `mechanism.type: 'onunhandledrejection'`. With an app listener, or `warn` / `none`, it is captured and the
 *   process goes on; `strict` raises it as an uncaught exception first, which is where it is captured.
 */
export function startAutocapture(target: AutocaptureTarget): () => void {
  const g = globalThis as Global;
  const state = (g[STATE] ??= install());
  state.targets.add(target);
  return () => {
    if (!state.targets.delete(target) || state.targets.size || state.exiting) return;
    state.remove();
    if (g[STATE] === state) delete g[STATE];
  };
}

function install(): State {
  const state: State = { targets: new Set(), mode: rejectionMode(), exiting: false, remove: () => undefined };
  const isOurs = (listener: unknown) => typeof listener === 'function' && OURS in listener;

  const onUncaught = mark((error: unknown, origin?: string) => {
    try {
      const captures = [...state.targets].map((t) => t.capture(error, origin === 'unhandledRejection' ? UNHANDLED : UNCAUGHT));
      const appListens = process.listeners('uncaughtException').some((l) => !isOurs(l) && l.name !== 'domainUncaughtExceptionClear');
      if (appListens || state.exiting) return;
      // Node would print the error and exit with code 1: so do we, once the exception is sent (or the time is up).
      state.exiting = true;
      setTimeout(() => process.exit(1), FATAL_EXIT_MS);
      printFatal(error);
      void Promise.all(captures)
        .then(() => Promise.all([...state.targets].map((t) => t.shutdown(FATAL_FLUSH_MS))))
        .finally(() => process.exit(1));
    } catch {
      process.exit(1); // nothing may keep a crashing process alive
    }
  });

  const onRejection = mark((reason: unknown) => {
    try {
      if (state.mode === 'strict') return; // already raised (and captured) as an uncaught exception
      const appListens = process.listeners('unhandledRejection').some((l) => !isOurs(l));
      if (!appListens && state.mode === 'throw') {
        const error = reason instanceof Error ? reason : unhandledRejectionError(reason);
        const emit = process.emit as (event: string, ...args: unknown[]) => boolean;
        emit.call(process, 'uncaughtExceptionMonitor', error, 'unhandledRejection');
        emit.call(process, 'uncaughtException', error, 'unhandledRejection');
        return;
      }
      if (!appListens && state.mode === 'warn-with-error-code') {
        process.emitWarning(`Unhandled promise rejection: ${describe(reason)}`, 'UnhandledPromiseRejectionWarning');
        process.exitCode = 1;
      }
      for (const target of state.targets) void target.capture(reason, UNHANDLED);
    } catch {
      // never let the listener throw into the process
    }
  });

  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onRejection);
  state.remove = () => {
    process.removeListener('uncaughtException', onUncaught);
    process.removeListener('unhandledRejection', onRejection);
  };
  return state;
}

function mark<T extends (...args: never[]) => void>(listener: T): T {
  return Object.assign(listener, { [OURS]: true });
}

/** The mode given on the command line or in NODE_OPTIONS (the command line wins; the last one of each counts). */
function rejectionMode(): RejectionMode {
  const last = (args: string) => [...args.matchAll(/--unhandled[-_]rejections[= ]([\w-]+)/g)].at(-1)?.[1];
  // eslint-disable-next-line no-restricted-syntax -- Node's own option, read as Node reads it
  const mode = last(process.execArgv.join(' ')) ?? last(process.env.NODE_OPTIONS ?? '');
  return mode === 'strict' || mode === 'warn' || mode === 'warn-with-error-code' || mode === 'none' ? mode : 'throw';
}

/** What Node raises for a rejection whose reason is not an Error (`ERR_UNHANDLED_REJECTION`). */
function unhandledRejectionError(reason: unknown): Error {
  const error = new Error(
    'This error originated either by throwing inside of an async function without a catch block, or by rejecting a ' +
      `promise which was not handled with .catch(). The promise rejected with the reason "${describe(reason)}".`,
  );
  return Object.assign(error, { name: 'UnhandledPromiseRejection', code: 'ERR_UNHANDLED_REJECTION' });
}

function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}

/** Prints the error as Node does before it exits (its stack, with causes). */
function printFatal(error: unknown): void {
  try {
    console.error(error);
  } catch {
    // an error whose inspection throws must not stop the exit
  }
}
