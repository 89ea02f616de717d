import type { Kysely } from 'kysely';
import type { Database, Executor } from '../db/schema';
import { ValidationError } from '../errors';
import type { Actor } from '../http/actor';
import type { ActivityKind } from '../module';
import { activityStore, type ActorType } from './store';

export type Activity = 'created' | 'updated' | 'deleted';

/** Changes made by the command line (`service users create`, `projects create`, `keys create|revoke`, `init`). */
export const COMMAND_LINE: Actor = { user_id: null, api_key_id: null, label: 'command line' };

export interface Change {
  field: string;
  before: unknown;
  after: unknown;
}

export interface ActivityEntryInput {
  /** null for an organization's item (an `ActivityKind` with `organization`). */
  projectId: number | null;
  /** The kind of item: a key of the modules' `activityKinds`. */
  scope: string;
  itemId: string | number;
  activity: Activity;
  /** The item's name (or key, label, email) at the time. */
  name: string | null;
  changes: Change[] | null;
}

/** JSON with object keys sorted: two values are the same when their canonical texts are. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The `fields` whose value differs between `before` and `after` (a missing object or value counts as null), in the
 * order of `fields`. Objects are compared by content, whatever the order of their keys.
 */
export function changesBetween(before: Record<string, unknown> | null, after: Record<string, unknown> | null, fields: readonly string[]): Change[] {
  const changes: Change[] = [];
  for (const field of fields) {
    const b = before?.[field] ?? null;
    const a = after?.[field] ?? null;
    if (canonical(b) !== canonical(a)) changes.push({ field, before: b, after: a });
  }
  return changes;
}

/** What a secret's change is recorded as: that it changed, never its value. */
export const HIDDEN = '[hidden]';

/**
 * Records one change, in the caller's transaction (so the log has it exactly when the change is committed). An update
 * that changed nothing records nothing. Callers pass only fields that may be shown: never secrets or password hashes.
 */
export async function recordActivity(db: Executor, actor: Actor, entry: ActivityEntryInput): Promise<void> {
  if (entry.activity === 'updated' && entry.changes !== null && entry.changes.length === 0) return;
  await activityStore.insert(db, {
    project_id: entry.projectId,
    scope: entry.scope,
    item_id: String(entry.itemId),
    activity: entry.activity,
    user_id: actor.user_id,
    api_key_id: actor.api_key_id,
    actor_name: actor.label,
    detail: JSON.stringify({ name: entry.name, changes: entry.changes }),
    created_at: new Date().toISOString(),
  });
}

export interface ActivityEntry {
  id: number;
  scope: string;
  item_id: string;
  activity: string;
  user: { id: number; email: string; name: string } | null;
  actor: { type: ActorType; name: string; user_id: number | null; api_key_id: string | null };
  created_at: string;
  detail: { name: string | null; changes: Change[] | null };
}

/** Reading the activity log of a project or of the organization, newest first. */
export class ActivityService {
  /** The kinds of a project's items, and of the organization's. */
  readonly projectScopes: readonly string[];
  readonly organizationScopes: readonly string[];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kinds: Readonly<Record<string, ActivityKind>>,
  ) {
    this.projectScopes = Object.keys(kinds).filter((scope) => !kinds[scope]!.organization);
    this.organizationScopes = Object.keys(kinds).filter((scope) => kinds[scope]!.organization);
  }

  /** The scope a principal needs to read the entries of a kind of item (`<object>:read`); undefined for an unknown kind. */
  readScopeOf(scope: string): string | undefined {
    return Object.hasOwn(this.kinds, scope) ? `${this.kinds[scope]!.object}:read` : undefined;
  }

  /**
   * A page of a project's log (`projectId`), or of the organization's (null), optionally of one scope, one item, the
   * changes of one user (theirs in the web app and with their keys) and of one kind of actor.
   * 400 for a scope that is unknown or not logged there.
   */
  async list(projectId: number | null, opts: { scope?: string; itemId?: string; userId?: number; actorType?: ActorType; limit: number; offset: number }) {
    if (opts.scope !== undefined) {
      const allowed = projectId === null ? this.organizationScopes : this.projectScopes;
      if (!allowed.includes(opts.scope)) {
        throw new ValidationError(`"${opts.scope}" is not a valid choice here; use one of ${allowed.join(', ')}.`, 'scope', 'invalid_choice');
      }
    }
    const { count, rows } = await activityStore.page(this.db, { projectId, ...opts });
    const results: ActivityEntry[] = rows.map((row) => ({
      id: Number(row.id),
      scope: row.scope,
      item_id: row.item_id,
      activity: row.activity,
      // A change made with a key is the key's (the contract's `user: null`); `actor` says whose key it is.
      user:
        row.api_key_id === null && row.user_id !== null && row.user_email !== null
          ? { id: row.user_id, email: row.user_email, name: row.user_name ?? '' }
          : null,
      actor: {
        type: row.api_key_id !== null ? 'personal_api_key' : row.user_id !== null ? 'user' : 'command_line',
        name: row.actor_name,
        user_id: row.user_id,
        api_key_id: row.api_key_id,
      },
      created_at: row.created_at,
      detail: JSON.parse(row.detail) as ActivityEntry['detail'],
    }));
    return { count, results };
  }
}
