import type { Executor } from '../db/schema';
import { userStore } from './store';

/** Wrong passwords a client may give for one email before each next attempt has to wait. */
const LOGIN_FREE_FAILURES = 5;
/** The wait after the last free failure; every further failure doubles it, up to LOGIN_MAX_WAIT_MS. */
const LOGIN_FIRST_WAIT_MS = 30_000;
const LOGIN_MAX_WAIT_MS = 15 * 60_000;
/** A failure is forgotten this long after it happened, or at once when the same client logs in to the same email. */
const LOGIN_FAILURE_MEMORY_MS = 24 * 60 * 60_000;

/** How long a client with `failures` recent wrong passwords for an email waits after the last one. */
const loginWaitMs = (failures: number) =>
  failures < LOGIN_FREE_FAILURES ? 0 : Math.min(LOGIN_MAX_WAIT_MS, LOGIN_FIRST_WAIT_MS * 2 ** (failures - LOGIN_FREE_FAILURES));

/**
 * Slows password guessing per client and email, the pair: past a few wrong passwords each next attempt from that client
 * for that email waits longer, whatever the password, so a guesser learns nothing while waiting. Nobody else waits:
 * the account's owner logs in from another client, and the other accounts behind a shared address (an office, a
 * proxy without TRUST_PROXY) are not slowed by one guesser there. One address's guesses over many accounts are
 * limited by the failed-authentication throttle (`http/auth-failures.ts`), which counts every wrong password too.
 * The failures are rows of the database, so every worker and every instance on it agrees.
 */
export class LoginThrottle {
  constructor(private readonly db: Executor) {}

  /** Seconds the pair has to wait before its next attempt counts; 0 when it may try now. */
  async waitSeconds(client: string, email: string): Promise<number> {
    const now = Date.now();
    const { count, newest } = await userStore.failures(this.db, keyOf(client, email), new Date(now - LOGIN_FAILURE_MEMORY_MS).toISOString());
    const wait = loginWaitMs(count);
    if (!wait || !newest) return 0;
    const left = Date.parse(newest) + wait - now;
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /** Records a wrong password (or an unknown email) of the pair, and forgets failures past their memory. */
  async failed(client: string, email: string): Promise<void> {
    const now = Date.now();
    await userStore.addFailure(this.db, keyOf(client, email), new Date(now).toISOString(), new Date(now - LOGIN_FAILURE_MEMORY_MS).toISOString());
  }

  /** Forgets the pair's failures: its owner got in. */
  async succeeded(client: string, email: string): Promise<void> {
    await userStore.clearFailures(this.db, keyOf(client, email));
  }
}

const keyOf = (client: string, email: string) => `${client} ${email}`;
