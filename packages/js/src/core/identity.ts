import type { Persistence } from './persistence'

/** A UUIDv7: 48-bit millisecond timestamp, version 7, variant 10, random rest. */
export function uuidv7(): string {
  // Every browser of ES2020 and Node 20 have it, in insecure contexts too.
  const b = crypto.getRandomValues(new Uint8Array(16))
  let t = Date.now()
  for (let i = 5; i >= 0; i--, t = Math.floor(t / 256)) b[i] = t % 256
  b[6] = (b[6] & 0x0f) | 0x70
  b[8] = (b[8] & 0x3f) | 0x80
  return Array.from(b, (x) => (x + 256).toString(16).slice(1))
    .join('')
    .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')
}

/** Ids identify() refuses, as PostHog does: they are almost always a bug in the caller. */
export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && !/^\s*(undefined|null|distinct_?id|\$posthog_cookieless|\[object object\])?\s*$/i.test(id)
}

/** When a UUIDv7 was made (ms): its first 48 bits. A session id is one, so it tells when its session began. */
export const uuidTime = (id: string): number => parseInt(id.slice(0, 8) + id.slice(9, 13), 16)

/**
 * The session id: kept while the user is active, replaced after `idleMs` without events or 24 hours after it
 * began (as posthog-js does, so that a tab left open for days is not one endless recording).
 * Stored as `[last activity ms, id]`. `touch` records activity (events do; reads don't).
 */
export function sessionId(p: Persistence, idleMs: number, touch: boolean): string {
  const now = Date.now()
  const s = p.get<[number, string]>('$sesid')
  const alive = s && now - s[0] <= idleMs && now - uuidTime(s[1]) < 864e5
  const id = alive ? s[1] : uuidv7()
  if (touch || !alive) p.set({ $sesid: [now, id] })
  return id
}

/** Snapshot of `client.identityStore`. */
export interface IdentitySnapshot {
  /** The distinct id (`''` before `init`). */
  readonly distinctId: string
  /** The session id as of the last event or `get_session_id()` (`''` until then). */
  readonly sessionId: string
}

/** This tab's id, kept in sessionStorage (a new one where it is unavailable). */
export function windowId(): string {
  try {
    return (sessionStorage.__svc_window_id ||= uuidv7())
  } catch {
    return uuidv7()
  }
}
