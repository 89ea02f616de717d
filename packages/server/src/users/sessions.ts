import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Executor } from '../db/schema';
import type { Role } from '../http/roles';
import { SESSION_IDLE_MS } from '../http/session';
import type { User } from './service';
import { userStore } from './store';

/** The last request of a session is written at most this often (a read is not a write each time). */
const TOUCH_EVERY_MS = 60_000;

/** A session's id as stored: the sha256 hex of its cookie's value. */
export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ActiveSession {
  user: User;
  /** The CSRF token of the session: an HMAC of its cookie value, so nothing more is stored and it dies with the session. */
  csrfToken: string;
  /** True when this request moved the session's idle deadline (the cookie is sent again with its new expiry). */
  touched: boolean;
}

/** The CSRF token bound to a session's cookie value. */
export const csrfTokenOf = (token: string) => createHmac('sha256', token).update('csrf').digest('base64url');

/**
 * Server-side sessions: the cookie carries a random 256-bit token; the database keeps its sha256 only, with the user
 * and the time of the last request. A session idle for SESSION_IDLE_MS is over; logout, a new password and the user's removal end it.
 */
export class SessionService {
  /** Session ids (hashed) known live, until when: the rate limit asks on every request with a cookie. */
  private readonly knownLive = new Map<string, number>();

  constructor(private readonly db: Executor) {}

  /**
   * Whether the token is a session's (not ended, not idle too long), remembered for a minute; it changes nothing. The
   * API rate limit counts requests of a live session per session, and any other cookie per address.
   */
  async isLive(token: string): Promise<boolean> {
    if (token.length > 100) return false;
    const id = sessionIdOf(token);
    const now = Date.now();
    if ((this.knownLive.get(id) ?? 0) > now) return true;
    const row = await userStore.sessionWithUser(this.db, id);
    if (!row || !(now - Date.parse(row.last_seen_at) < SESSION_IDLE_MS)) return false;
    if (this.knownLive.size >= 10_000) this.knownLive.clear();
    this.knownLive.set(id, now + TOUCH_EVERY_MS);
    return true;
  }

  /** Starts a session for the user and returns its token (the cookie's value); ends `replacing`, the session the request came with, if any. */
  async start(userId: number, replacing?: string): Promise<string> {
    if (replacing) await this.end(replacing);
    const token = randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    // Logins are rare: a good time to forget the sessions that ended by idling.
    await userStore.deleteIdleSessions(this.db, new Date(Date.now() - SESSION_IDLE_MS).toISOString());
    await userStore.insertSession(this.db, { id: sessionIdOf(token), user_id: userId, created_at: now, last_seen_at: now });
    return token;
  }

  /** The live session of a token with its user, or undefined (unknown, ended, or idle too long: then it is deleted). */
  async verify(token: string): Promise<ActiveSession | undefined> {
    if (token.length > 100) return undefined;
    const id = sessionIdOf(token);
    const row = await userStore.sessionWithUser(this.db, id);
    if (!row) return undefined;
    const now = Date.now();
    const lastSeen = Date.parse(row.last_seen_at);
    if (!(now - lastSeen < SESSION_IDLE_MS)) {
      await userStore.deleteSession(this.db, id);
      return undefined;
    }
    const touched = now - lastSeen >= TOUCH_EVERY_MS;
    if (touched) await userStore.touchSession(this.db, id, new Date(now).toISOString());
    const user = { id: row.id, email: row.email, name: row.name, role: row.role as Role, joined_at: row.created_at };
    return { user, csrfToken: csrfTokenOf(token), touched };
  }

  /** Ends the session of this token (nothing when there is none). */
  async end(token: string): Promise<void> {
    await userStore.deleteSession(this.db, sessionIdOf(token));
  }
}
