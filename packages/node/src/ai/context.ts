import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The trace or span a call runs inside: generations made there nest under it. */
export interface AiScope {
  traceId: string;
  /** The id generations and spans made inside take as `$ai_parent_id` (the trace id at the top level). */
  spanId: string;
  distinctId?: string;
  groups?: Record<string, string>;
  properties?: Record<string, unknown>;
  privacyMode?: boolean;
}

const scopes = new AsyncLocalStorage<AiScope>();

export const currentScope = (): AiScope | undefined => scopes.getStore();
export const runInScope = <T>(scope: AiScope, fn: () => T): T => scopes.run(scope, fn);
export const newId = (): string => randomUUID();
