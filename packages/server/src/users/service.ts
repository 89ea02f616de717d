import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { COMMAND_LINE, changesBetween, recordActivity } from '../activity/service';
import type { Actor as ActivityActor } from '../http/actor';
import type { ApiKeyService } from '../api-keys/service';
import { isUniqueViolation } from '../db/database';
import type { Database, Executor } from '../db/schema';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { LoginThrottle } from './login-throttle';
import { checkPassword, dummyHash, hashPassword, verifyPassword } from './passwords';
import { grantable, isRole, type Role } from '../http/roles';
import { ORGANIZATION_ID, userStore, type InviteRow, type UserRow } from './store';

export interface User {
  id: number;
  email: string;
  name: string;
  role: Role;
  joined_at: string;
}

export interface Organization {
  id: number;
  name: string;
}

export interface Invite {
  id: string;
  role: Role;
  email: string | null;
  created_at: string;
  expires_at: string;
  created_by: number | null;
}

/** Who changes members or invites: their user (null for a command-line key), key, name, and whether they have an owner's rights. */
export interface Actor extends ActivityActor {
  owner: boolean;
}

export type LoginResult = { ok: true; user: User } | { ok: false; retryAfterSeconds?: number };

export const DEFAULT_ORGANIZATION_NAME = 'Default organization';
export const INVITE_DAYS = 7;

const DAY_MS = 24 * 60 * 60_000;
/** How a secret of a link (an invite's, a password reset's) is stored: its sha256 hex. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const toUser = (row: UserRow): User => ({ id: row.id, email: row.email, name: row.name, role: row.role as Role, joined_at: row.created_at });
const toInvite = (row: InviteRow): Invite => ({
  id: row.id,
  role: row.role as Role,
  email: row.email,
  created_at: row.created_at,
  expires_at: row.expires_at,
  created_by: row.created_by,
});

/** An email address as stored: trimmed, lower case; 400 unless it looks like one. */
export function normalEmail(raw: string, attr = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) throw new ValidationError('Enter a valid email address.', attr, 'invalid_email');
  return email;
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new ValidationError('This field may not be blank.', 'name', 'blank');
  return name;
}

/** A member's creation, role change or removal in the activity log (in the change's transaction). */
function recordMember(db: Executor, actor: ActivityActor, before: Pick<UserRow, 'id' | 'email' | 'role'> | undefined, after: typeof before) {
  const row = (after ?? before)!;
  return recordActivity(db, actor, {
    projectId: null,
    scope: 'OrganizationMembership',
    itemId: row.id,
    activity: !before ? 'created' : !after ? 'deleted' : 'updated',
    name: row.email,
    changes: after ? changesBetween(before ?? null, after, ['email', 'role']) : null,
  });
}

/** An invite's creation, acceptance or withdrawal in the activity log; never its token. */
function recordInvite(
  db: Executor,
  actor: ActivityActor,
  row: InviteRow,
  activity: 'created' | 'updated' | 'deleted',
  changes: ReturnType<typeof changesBetween> | null,
) {
  return recordActivity(db, actor, { projectId: null, scope: 'OrganizationInvite', itemId: row.id, activity, name: row.email, changes });
}

/** The actor of a change a user makes for themselves (signing up, accepting an invite, setting a password). */
export const selfActor = (user: Pick<UserRow, 'id' | 'name' | 'email'>): ActivityActor => ({
  user_id: user.id,
  api_key_id: null,
  label: user.name || user.email,
});

const emailTaken = () => new ValidationError('An account with this email address exists already.', 'email', 'unique');

/**
 * Accounts: the organization, its users and their roles, invites, and logins with their throttle (SQL in ./store).
 * Sessions are ./sessions.
 */
export class UserService {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly keys: ApiKeyService,
  ) {
    this.throttle = new LoginThrottle(db);
  }

  /** True while no account exists: the first visit creates the owner. */
  async needsFirstAccount(): Promise<boolean> {
    return (await userStore.countUsers(this.db)) === 0;
  }

  async organization(): Promise<Organization> {
    const row = await userStore.organization(this.db);
    return { id: ORGANIZATION_ID, name: row?.name ?? DEFAULT_ORGANIZATION_NAME };
  }

  async get(id: number): Promise<User | undefined> {
    const row = await userStore.user(this.db, id);
    return row && toUser(row);
  }

  /** The first account, an owner; 403 once any account exists (also when two ask at once). */
  async signup(input: { email: string; name: string; password: string; organizationName?: string }): Promise<User> {
    const email = normalEmail(input.email);
    const name = checkName(input.name);
    checkPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    const orgName = input.organizationName?.trim() || DEFAULT_ORGANIZATION_NAME;
    const now = new Date().toISOString();
    await userStore.ensureOrganization(this.db, orgName, now);
    return this.db.transaction().execute(async (trx) => {
      await userStore.lockOrganization(trx);
      if ((await userStore.countUsers(trx)) > 0) {
        throw new ForbiddenError('The first account exists already; ask an admin for an invite.', 'already_set_up');
      }
      await trx.updateTable('organizations').set({ name: orgName }).where('id', '=', ORGANIZATION_ID).execute();
      const user = await userStore.insertUser(trx, {
        organization_id: ORGANIZATION_ID,
        email,
        name,
        password_hash: passwordHash,
        role: 'owner',
        created_at: now,
      });
      await recordMember(trx, selfActor(user), undefined, user);
      return toUser(user);
    });
  }

  /** A user made by an operator (the command line): an owner when it is the first, else `role` (default member). */
  async create(input: { email: string; name?: string; password: string; role?: string }, actor: ActivityActor = COMMAND_LINE): Promise<User> {
    const email = normalEmail(input.email);
    const name = checkName(input.name ?? email.split('@')[0]!);
    checkPassword(input.password);
    if (input.role !== undefined && !isRole(input.role)) throw new ValidationError(`"${input.role}" is not a valid choice.`, 'role', 'invalid_choice');
    const passwordHash = await hashPassword(input.password);
    const now = new Date().toISOString();
    await userStore.ensureOrganization(this.db, DEFAULT_ORGANIZATION_NAME, now);
    try {
      return await this.db.transaction().execute(async (trx) => {
        await userStore.lockOrganization(trx);
        const role = input.role ?? ((await userStore.countUsers(trx)) === 0 ? 'owner' : 'member');
        const user = await userStore.insertUser(trx, { organization_id: ORGANIZATION_ID, email, name, password_hash: passwordHash, role, created_at: now });
        await recordMember(trx, actor, undefined, user);
        return toUser(user);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'email')) throw emailTaken();
      throw error;
    }
  }

  /**
   * Checks an email and password given by `client` (its address, see LoginThrottle). While the pair waits after its
   * failures this gives `retryAfterSeconds` without checking the password. An unknown email costs the same hashing as
   * a wrong password and counts as one; a success forgets the pair's failures.
   */
  async login(rawEmail: string, password: string, client: string): Promise<LoginResult> {
    const email = rawEmail.trim().toLowerCase();
    const retryAfterSeconds = await this.throttle.waitSeconds(client, email);
    if (retryAfterSeconds) return { ok: false, retryAfterSeconds };
    const fallback = await dummyHash();
    const row = await userStore.userByEmail(this.db, email);
    const valid = await verifyPassword(password, row?.password_hash ?? fallback);
    if (!row || !valid) {
      await this.throttle.failed(client, email);
      return { ok: false };
    }
    await this.throttle.succeeded(client, email);
    return { ok: true, user: toUser(row) };
  }

  /** Every member, oldest first. */
  async members(): Promise<User[]> {
    return (await userStore.users(this.db)).map(toUser);
  }

  /** Changes a member's role. Only an owner makes an owner or changes one; the organization keeps at least one owner. */
  async setRole(actor: Actor, id: number, role: Role): Promise<User> {
    return this.db.transaction().execute(async (trx) => {
      await userStore.lockOrganization(trx);
      const target = await userStore.user(trx, id);
      if (!target) throw new NotFoundError('No such member.');
      if (!actor.owner && (role === 'owner' || target.role === 'owner')) throw new ForbiddenError('Only an owner can make an owner or change one.');
      if (target.role === 'owner' && role !== 'owner') await this.keepAnOwner(trx);
      await userStore.setRole(trx, id, role);
      await recordMember(trx, actor, target, { ...target, role });
      return toUser({ ...target, role });
    });
  }

  /** Removes a member: their sessions end and their personal API keys are revoked. Only an owner removes an owner; the last owner stays. */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await userStore.lockOrganization(trx);
      const target = await userStore.user(trx, id);
      if (!target) throw new NotFoundError('No such member.');
      if (target.role === 'owner') {
        if (!actor.owner) throw new ForbiddenError('Only an owner can remove an owner.');
        await this.keepAnOwner(trx);
      }
      await this.keys.revokeAllOf(id, trx);
      await userStore.deleteUser(trx, id);
      await recordMember(trx, actor, target, undefined);
    });
  }

  /** Throws unless another owner remains once one stops being an owner. */
  private async keepAnOwner(trx: Executor) {
    if ((await userStore.countOwners(trx)) <= 1) {
      throw new ValidationError('The organization must keep at least one owner; make someone else an owner first.', 'role', 'last_owner');
    }
  }

  /** A single-use invite valid INVITE_DAYS days, and its token (shown once; only its hash is stored). */
  async invite(actor: Actor, input: { role: Role; email?: string | null }): Promise<{ invite: Invite; token: string }> {
    if (!grantable(actor.owner, input.role)) throw new ForbiddenError('Only an owner can invite an owner.');
    const email = input.email ? normalEmail(input.email) : null;
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const row: InviteRow = {
      id: randomUUID(),
      token_hash: secretHash(token),
      role: input.role,
      email,
      created_by: actor.user_id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + INVITE_DAYS * DAY_MS).toISOString(),
      accepted_at: null,
    };
    await this.db.transaction().execute(async (trx) => {
      await userStore.insertInvite(trx, row);
      await recordInvite(trx, actor, row, 'created', changesBetween(null, row, ['role', 'email', 'expires_at']));
    });
    return { invite: toInvite(row), token };
  }

  /** Pending invites, newest first. */
  async invites(): Promise<Invite[]> {
    return (await userStore.pendingInvites(this.db, new Date().toISOString())).map(toInvite);
  }

  /** Withdraws a pending invite; 404 when there is none with this id. */
  async deleteInvite(id: string, actor: ActivityActor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await userStore.invite(trx, id);
      if (!row || !(await userStore.deleteInvite(trx, id))) throw new NotFoundError('No such pending invite.');
      await recordInvite(trx, actor, row, 'deleted', null);
    });
  }

  /** What a pending invite's link offers; undefined when it is unknown, used or expired. */
  async inviteByToken(token: string): Promise<{ invite: Invite; organizationName: string } | undefined> {
    const row = await userStore.pendingInviteByHash(this.db, secretHash(token), new Date().toISOString());
    if (!row) return undefined;
    return { invite: toInvite(row), organizationName: (await this.organization()).name };
  }

  /** Creates the invited user with the invite's role and uses the invite up (404 when it is unknown, used or expired). */
  async acceptInvite(token: string, input: { email: string; name: string; password: string }): Promise<User> {
    const email = normalEmail(input.email);
    const name = checkName(input.name);
    checkPassword(input.password);
    const pending = await this.inviteByToken(token);
    if (!pending) throw new NotFoundError('This invite link is unknown, used or expired.');
    if (pending.invite.email && pending.invite.email !== email) {
      throw new ValidationError('This invite is for another email address.', 'email', 'email_mismatch');
    }
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        if (!(await userStore.acceptInvite(trx, pending.invite.id, now))) throw new NotFoundError('This invite link is unknown, used or expired.');
        const user = await userStore.insertUser(trx, {
          organization_id: ORGANIZATION_ID,
          email,
          name,
          password_hash: passwordHash,
          role: pending.invite.role,
          created_at: now,
        });
        const actor = selfActor(user);
        const invite = { ...pending.invite, token_hash: '', accepted_at: now };
        await recordInvite(trx, actor, invite, 'updated', [{ field: 'accepted_at', before: null, after: now }]);
        await recordMember(trx, actor, undefined, user);
        return toUser(user);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'email')) throw emailTaken();
      throw error;
    }
  }
}
