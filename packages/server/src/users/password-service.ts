import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { COMMAND_LINE, HIDDEN, recordActivity, type Change } from '../activity/service';
import type { Actor as ActivityActor } from '../http/actor';
import type { Database, Executor } from '../db/schema';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { LoginThrottle } from './login-throttle';
import { checkPassword, hashPassword, verifyPassword } from './passwords';
import { sessionIdOf } from './sessions';
import { normalEmail, secretHash, selfActor, toUser, type Actor, type User } from './service';
import { userStore, type UserRow } from './store';

/** How long a password reset link works. */
export const PASSWORD_RESET_HOURS = 24;

export interface PasswordReset {
  user: User;
  /** The link's secret, shown once: only its hash is stored. */
  token: string;
  expires_at: string;
}

export type PasswordChange = { ok: true } | { ok: false; retryAfterSeconds: number };

const unknownReset = () => new NotFoundError('This password reset link is unknown, used or expired.');

/** A password's change in the activity log: that it changed, never a hash. */
const passwordChanged: Change[] = [{ field: 'password', before: HIDDEN, after: `${HIDDEN} (new)` }];

function recordPassword(db: Executor, actor: ActivityActor, user: Pick<UserRow, 'id' | 'email'>, changes: Change[]) {
  return recordActivity(db, actor, { projectId: null, scope: 'OrganizationMembership', itemId: user.id, activity: 'updated', name: user.email, changes });
}

/**
 * Passwords of accounts once they exist: an operator sets one (the command line), a user changes their own, and an
 * admin makes a single-use reset link for a member. A new password ends the user's other sessions and voids their
 * unused reset links; their personal API keys stay (they are credentials of their own, revoked one by one).
 */
export class PasswordService {
  private readonly throttle: LoginThrottle;

  constructor(private readonly db: Kysely<Database>) {
    this.throttle = new LoginThrottle(db);
  }

  /** Sets the password of the account with this email (the command line); every session of the user ends. */
  async set(rawEmail: string, password: string, actor: ActivityActor = COMMAND_LINE): Promise<{ user: User; sessionsEnded: number }> {
    const email = normalEmail(rawEmail);
    checkPassword(password);
    const user = await userStore.userByEmail(this.db, email);
    if (!user) throw new ValidationError(`No account has the email address ${email}.`, 'email', 'unknown_email');
    const sessionsEnded = await this.replace(user, await hashPassword(password), actor);
    return { user: toUser(user), sessionsEnded };
  }

  /**
   * A signed-in user's new password, given their current one (checked as a login is, throttled per `client` and
   * email: a stolen session cannot guess it faster). The session `keep` (the request's) goes on; the others end.
   */
  async change(userId: number, input: { currentPassword: string; password: string }, client: string, keep: string): Promise<PasswordChange> {
    const user = await userStore.user(this.db, userId);
    if (!user) throw new NotFoundError('No such user.');
    const retryAfterSeconds = await this.throttle.waitSeconds(client, user.email);
    if (retryAfterSeconds) return { ok: false, retryAfterSeconds };
    if (!(await verifyPassword(input.currentPassword, user.password_hash))) {
      await this.throttle.failed(client, user.email);
      throw new ValidationError('The current password is wrong.', 'current_password', 'wrong_password');
    }
    await this.throttle.succeeded(client, user.email);
    checkPassword(input.password);
    await this.replace(user, await hashPassword(input.password), selfActor(user), sessionIdOf(keep));
    return { ok: true };
  }

  /**
   * A reset link for a member, valid PASSWORD_RESET_HOURS hours, once; it voids the member's earlier unused links.
   * Only an owner makes one for an owner (whose account it would hand over).
   */
  async makeReset(actor: Actor, userId: number): Promise<PasswordReset> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + PASSWORD_RESET_HOURS * 60 * 60_000).toISOString();
    const user = await this.db.transaction().execute(async (trx) => {
      const target = await userStore.user(trx, userId);
      if (!target) throw new NotFoundError('No such member.');
      if (target.role === 'owner' && !actor.owner) throw new ForbiddenError('Only an owner can make a password reset link for an owner.');
      await userStore.deleteUnusedPasswordResets(trx, target.id);
      await userStore.insertPasswordReset(trx, {
        id: randomUUID(),
        token_hash: secretHash(token),
        user_id: target.id,
        created_by: actor.user_id,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        used_at: null,
      });
      await recordPassword(trx, actor, target, [{ field: 'password_reset_link', before: null, after: `valid until ${expiresAt}` }]);
      return target;
    });
    return { user: toUser(user), token, expires_at: expiresAt };
  }

  /** The user a pending reset link is for; undefined when the link is unknown, used or expired. */
  async resetFor(token: string): Promise<User | undefined> {
    const reset = await userStore.pendingPasswordResetByHash(this.db, secretHash(token), new Date().toISOString());
    const user = reset && (await userStore.user(this.db, reset.user_id));
    return user && toUser(user);
  }

  /**
   * Sets the password of a reset link's user and uses the link up (404 when it is unknown, used or expired; a refused
   * password leaves it usable). Every session of the user ends.
   */
  async reset(token: string, password: string): Promise<User> {
    const pending = await userStore.pendingPasswordResetByHash(this.db, secretHash(token), new Date().toISOString());
    if (!pending) throw unknownReset();
    checkPassword(password);
    const passwordHash = await hashPassword(password);
    return this.db.transaction().execute(async (trx) => {
      if (!(await userStore.usePasswordReset(trx, pending.id, new Date().toISOString()))) throw unknownReset();
      const user = await userStore.user(trx, pending.user_id);
      if (!user) throw unknownReset();
      await this.replace(user, passwordHash, selfActor(user), undefined, trx);
      return toUser(user);
    });
  }

  /** Stores the new hash, ends the user's sessions but `keep` (a hashed session id), voids their unused reset links, logs it. */
  private async replace(user: UserRow, passwordHash: string, actor: ActivityActor, keep?: string, db?: Executor): Promise<number> {
    const write = async (trx: Executor) => {
      await userStore.setPasswordHash(trx, user.id, passwordHash);
      const ended = await userStore.deleteSessionsOf(trx, user.id, keep);
      await userStore.deleteUnusedPasswordResets(trx, user.id);
      await recordPassword(trx, actor, user, passwordChanged);
      return ended;
    };
    return db ? write(db) : this.db.transaction().execute(write);
  }
}
