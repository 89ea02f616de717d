import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { COMMAND_LINE, changesBetween, recordActivity } from '../activity/service';
import type { Actor } from '../http/actor';
import type { Executor } from '../db/schema';
import { ValidationError } from '../errors';
import { parseScopes } from '../http/scopes';
import { apiKeyStore, type ApiKeyRow, type KeyWithUserRow } from './store';

export interface ApiKey {
  id: string;
  label: string;
  mask_value: string;
  scopes: string[];
  project_ids: number[] | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The user who made the key; null for keys made by the command line. */
  user_id: number | null;
}

/** A key as its managers see it: with its user (null for a key made by the command line, such as the first start's). */
export interface ListedKey extends ApiKey {
  user: { id: number; email: string; name: string } | null;
}

/** A key that authenticated a request, with its user's role (null without a user): a user's key never exceeds the role. */
export interface VerifiedKey extends ApiKey {
  role: string | null;
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * Who makes and manages personal API keys through the API: a user (`userId` null: the command line), with the scopes
 * `allowed` grants, limited to `projectIds` (null: every project), managing every user's keys when `everyKey` (admins).
 */
export interface KeyManager {
  userId: number | null;
  allowed: (scope: string) => boolean;
  projectIds: number[] | null;
  everyKey: boolean;
}

/**
 * Whether `manager` may see and revoke `key`: any key when it manages every key (every user's and the command line's);
 * else its user's own, and for a manager limited to some projects only the keys it could have made (limited to its
 * projects, with scopes it holds), itself among them.
 */
export function reaches(manager: KeyManager, key: ApiKey): boolean {
  if (manager.everyKey) return true;
  if (key.user_id !== manager.userId) return false;
  const limit = manager.projectIds;
  return limit === null || (key.project_ids !== null && key.project_ids.every((id) => limit.includes(id)) && key.scopes.every(manager.allowed));
}

const toListedKey = ({ user_email, user_name, ...row }: KeyWithUserRow): ListedKey => ({
  ...toApiKey(row),
  user: row.user_id !== null && user_email !== null ? { id: row.user_id, email: user_email, name: user_name ?? '' } : null,
});

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    label: row.label,
    mask_value: row.mask_value,
    scopes: JSON.parse(row.scopes) as string[],
    project_ids: row.project_ids ? (JSON.parse(row.project_ids) as number[]) : null,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    user_id: row.user_id ?? null,
  };
}

/** Personal API keys: creating, listing, revoking, and verifying a secret (SQL in ./store). */
export class ApiKeyService {
  private readonly lastTouched = new Map<string, number>();

  constructor(private readonly db: Executor) {}

  /** Creates a key and returns it with its secret; only the secret's hash is stored. `actor`: who makes it (for the activity log). */
  async create(
    input: { label: string; scopes: string[]; projectIds: number[] | null; userId?: number | null },
    actor: Actor = COMMAND_LINE,
  ): Promise<{ key: ApiKey; secret: string }> {
    const secret = `phx_${randomBytes(32).toString('base64url')}`;
    const row = {
      id: randomUUID(),
      label: input.label,
      secure_value: hashSecret(secret),
      mask_value: `${secret.slice(0, 8)}...${secret.slice(-4)}`,
      scopes: JSON.stringify(input.scopes),
      project_ids: input.projectIds ? JSON.stringify(input.projectIds) : null,
      created_at: new Date().toISOString(),
      last_used_at: null,
      revoked_at: null,
      user_id: input.userId ?? null,
    };
    const key = toApiKey(row);
    await this.db.transaction().execute(async (trx) => {
      await apiKeyStore.insert(trx, row);
      await recordActivity(trx, actor, {
        projectId: null,
        scope: 'PersonalAPIKey',
        itemId: key.id,
        activity: 'created',
        name: key.label,
        changes: changesBetween(null, { label: key.label, scopes: key.scopes, project_ids: key.project_ids, user_id: key.user_id }, [
          'label',
          'scopes',
          'project_ids',
          'user_id',
        ]),
      });
    });
    return { key, secret };
  }

  async list(): Promise<ApiKey[]> {
    return (await apiKeyStore.all(this.db)).map(toApiKey);
  }

  /** The live keys `manager` reaches (see `reaches`: every key for a manager of every key, else its user's own), newest first. */
  async listOf(manager: KeyManager): Promise<ListedKey[]> {
    const rows = await apiKeyStore.live(this.db, manager.everyKey ? {} : { userId: manager.userId });
    return rows.map(toListedKey).filter((key) => reaches(manager, key));
  }

  /**
   * A key made by a user (or, with `userId` null, by a command-line key) for themselves: every scope must be one the maker
   * holds (a user's key never exceeds the user's role), and a maker limited to some projects makes keys limited to those.
   */
  async createPersonal(
    maker: KeyManager,
    input: { label: string; scopes: string[]; projectIds: number[] | null; projectExists: (id: number) => Promise<boolean>; actor: Actor },
  ): Promise<{ key: ListedKey; secret: string }> {
    let scopes: string[];
    try {
      scopes = [...new Set(parseScopes(input.scopes.join(',')))];
    } catch (error) {
      throw new ValidationError((error as Error).message, 'scopes', 'invalid_scope');
    }
    const beyond = scopes.filter((scope) => !maker.allowed(scope));
    if (beyond.length) {
      throw new ValidationError(`A key cannot have scopes its maker lacks: ${beyond.join(', ')}.`, 'scopes', 'scope_not_allowed');
    }
    let projectIds = input.projectIds === null ? null : [...new Set(input.projectIds)];
    const limit = maker.projectIds;
    if (limit && projectIds === null) projectIds = limit;
    for (const id of projectIds ?? []) {
      if ((limit && !limit.includes(id)) || !(await input.projectExists(id))) {
        throw new ValidationError(`No project with id ${id} is available.`, 'project_ids', 'invalid_project');
      }
    }
    const { key, secret } = await this.create({ label: input.label, scopes, projectIds, userId: maker.userId }, input.actor);
    const [listed] = await apiKeyStore.live(this.db, { id: key.id });
    return { key: listed ? toListedKey(listed) : { ...key, user: null }, secret };
  }

  /** Revokes a live key `manager` reaches (see `reaches`); false when there is none to revoke. */
  async revokeOwn(id: string, manager: KeyManager, actor: Actor): Promise<boolean> {
    const key = await this.get(id);
    if (!key || key.revoked_at || !reaches(manager, key)) return false;
    return this.revoke(id, actor);
  }

  /** The key with this id, live or revoked. */
  async get(id: string): Promise<ApiKey | undefined> {
    const row = await apiKeyStore.get(this.db, id);
    return row && toApiKey(row);
  }

  /** Revokes the key with this id; false when there is no such live key. `actor`: who revokes it (for the activity log). */
  async revoke(id: string, actor: Actor = COMMAND_LINE): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await apiKeyStore.get(trx, id);
      if (!row || !(await apiKeyStore.revoke(trx, id, new Date().toISOString()))) return false;
      await recordActivity(trx, actor, { projectId: null, scope: 'PersonalAPIKey', itemId: id, activity: 'deleted', name: row.label, changes: null });
      return true;
    });
  }

  /** Revokes every live key of a user (when the user is removed). */
  async revokeAllOf(userId: number, db: Executor = this.db): Promise<void> {
    await apiKeyStore.revokeAllOf(db, userId, new Date().toISOString());
  }

  /** The live key whose secret this is, with its user's role, or undefined (also when its user is gone). Hashes are compared in constant time. */
  async verify(secret: string): Promise<VerifiedKey | undefined> {
    const hash = hashSecret(secret);
    const row = await apiKeyStore.byHash(this.db, hash);
    if (!row || row.revoked_at) return undefined;
    if (!timingSafeEqual(Buffer.from(row.secure_value, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    if (row.user_id !== null && row.role === null) return undefined;
    await this.touch(row.id);
    const { role, ...key } = row;
    return { ...toApiKey(key), role };
  }

  /** Records use, at most once a minute per key, so reads do not turn into a write each. */
  private async touch(id: string) {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < 60_000) return;
    this.lastTouched.set(id, now);
    await apiKeyStore.touch(this.db, id, new Date(now).toISOString());
  }
}
