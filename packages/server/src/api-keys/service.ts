import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../db/schema';
import { apiKeyStore, type ApiKeyRow } from './store';

/** Objects a scope can name; a scope is `<object>:read`, `<object>:write`, or `*`. */
export const SCOPE_OBJECTS = ['early_access_feature', 'feature_flag', 'project', 'event', 'person'] as const;

export interface ApiKey {
  id: string;
  label: string;
  mask_value: string;
  scopes: string[];
  project_ids: number[] | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Throws with a readable message when a scope is not `*` or `<object>:<read|write>`. */
export function parseScopes(input: string): string[] {
  const scopes = input
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!scopes.length) throw new Error('at least one scope is required');
  for (const scope of scopes) {
    const [object, action] = scope.split(':');
    const valid = scope === '*' || (SCOPE_OBJECTS.includes(object as never) && (action === 'read' || action === 'write'));
    if (!valid) throw new Error(`unknown scope "${scope}"; use * or <${SCOPE_OBJECTS.join('|')}>:<read|write>`);
  }
  return scopes;
}

/** `write` implies `read`; `*` grants everything. */
export function hasScope(granted: string[], required: string): boolean {
  if (granted.includes('*') || granted.includes(required)) return true;
  const [object, action] = required.split(':');
  return action === 'read' && granted.includes(`${object}:write`);
}

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
  };
}

/** Personal API keys: creating, listing, revoking, and verifying a secret (SQL in ./store). */
export class ApiKeyService {
  private readonly lastTouched = new Map<string, number>();

  constructor(private readonly db: Executor) {}

  /** Creates a key and returns it with its secret; only the secret's hash is stored. */
  async create(input: { label: string; scopes: string[]; projectIds: number[] | null }): Promise<{ key: ApiKey; secret: string }> {
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
    };
    await apiKeyStore.insert(this.db, row);
    return { key: toApiKey(row), secret };
  }

  async list(): Promise<ApiKey[]> {
    return (await apiKeyStore.all(this.db)).map(toApiKey);
  }

  /** Revokes the key with this id; false when there is no such live key. */
  async revoke(id: string): Promise<boolean> {
    return apiKeyStore.revoke(this.db, id, new Date().toISOString());
  }

  /** The live key whose secret this is, or undefined. Hashes are compared in constant time. */
  async verify(secret: string): Promise<ApiKey | undefined> {
    const hash = hashSecret(secret);
    const row = await apiKeyStore.byHash(this.db, hash);
    if (!row || row.revoked_at) return undefined;
    if (!timingSafeEqual(Buffer.from(row.secure_value, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    await this.touch(row.id);
    return toApiKey(row);
  }

  /** Records use, at most once a minute per key, so reads do not turn into a write each. */
  private async touch(id: string) {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < 60_000) return;
    this.lastTouched.set(id, now);
    await apiKeyStore.touch(this.db, id, new Date(now).toISOString());
  }
}
