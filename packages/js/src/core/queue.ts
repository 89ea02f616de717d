import type { Props } from './properties'
import type { KV } from './persistence'
import { gzip } from './request'

/** One event as it goes on the wire, inside `{api_key, batch: [...], sent_at}`. */
export interface CaptureEvent {
  uuid: string
  event: string
  properties: Props
  timestamp: string
  $set?: Props
  $set_once?: Props
}

export interface Queue {
  add(ev: CaptureEvent): void
  /** Sends everything queued now; resolves when the queue is empty or a send failed. */
  flush(): Promise<void>
  /** Page is going away: hand the queue to `sendBeacon`. */
  unload(): void
}

export const FLUSH_MS = 3000
export const BATCH = 50
/** Oldest events are dropped beyond this, so an endless outage cannot fill storage. */
export const MAX_QUEUE = 1000

/** Delay before retry `n` (1-based): 3 s · 2^(n-1), capped at 30 min, ±25 % jitter. */
export function backoff(n: number): number {
  const d = Math.min(FLUSH_MS * 2 ** (n - 1), 1_800_000)
  return d + (Math.random() - 0.5) * (d / 2)
}

/**
 * A queue of events for one endpoint (`/e/` for events, `/s/` for session replay's `$snapshot` batches,
 * which go `batch` = 1 a request since each is up to 0.9 MB, `max` 100 kept). Every event is written to storage (`kv`) before any send and removed only after
 * a 2xx (or a 4xx other than 429, which no retry can fix), so a reload or an outage loses nothing:
 * the next client over the same storage sends what is left. Network errors, 5xx and 429 are retried
 * with exponential back-off and jitter.
 */
export function createQueue(
  url: string,
  token: string,
  kv: KV | undefined,
  key: string,
  log: (...a: unknown[]) => void,
  batch = BATCH,
  max = MAX_QUEUE,
): Queue {
  let q: CaptureEvent[] = []
  try {
    const stored = JSON.parse(kv?.get(key) || '[]')
    if (Array.isArray(stored)) q = stored
  } catch {
    // unreadable queue: start empty
  }
  const inflight = new Set<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let sending: Promise<void> | undefined
  let failures = 0

  const save = () => {
    try {
      if (q.length) kv?.set(key, JSON.stringify(q))
      else kv?.del(key)
    } catch {
      // Storage full or gone: the memory queue still works. What was stored before is removed, so that a
      // stale copy is not sent again with the next page load, and the room goes to the other queue.
      try {
        kv?.del(key)
      } catch {
        // gone
      }
    }
  }
  const remove = (done: Set<string>) => {
    q = q.filter((e) => !done.has(e.uuid))
    save()
  }
  const schedule = (ms: number) => {
    timer ??= setTimeout(() => {
      timer = undefined
      flush()
    }, ms)
  }
  const body = (batch: CaptureEvent[]) => JSON.stringify({ api_key: token, batch, sent_at: new Date().toISOString() })

  /** POST one batch; returns the HTTP status, 0 for a network error. */
  const post = async (batch: CaptureEvent[]): Promise<number> => {
    const json = body(batch)
    const gz = await gzip(json)
    try {
      const res = await fetch(gz ? url + '?compression=gzip-js' : url, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: gz || json,
        // keepalive (survives navigation) is capped at 64 KiB by browsers; a UTF-16 unit is at most 3 bytes.
        keepalive: (gz ? gz.length : json.length * 3) < 60000,
      })
      return res.status
    } catch {
      return 0
    }
  }

  const send = async () => {
    while (q.length) {
      const some = q.slice(0, batch)
      const ids = new Set(some.map((e) => e.uuid))
      ids.forEach((id) => inflight.add(id))
      const status = await post(some)
      ids.forEach((id) => inflight.delete(id))
      if (status >= 200 && status < 300) {
        failures = 0
        remove(ids)
      } else if (status >= 400 && status < 500 && status !== 429) {
        log('dropped', status)
        remove(ids)
      } else {
        failures++
        log('will retry', status || 'network error')
        schedule(backoff(failures))
        return
      }
    }
  }

  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    return (sending ??= send()
      .catch((e) => log(e))
      .finally(() => (sending = undefined)))
  }

  if (typeof addEventListener === 'function') addEventListener('online', () => q.length && flush())
  if (q.length) schedule(0)

  return {
    add(ev) {
      q.push(ev)
      if (q.length > max) q = q.slice(-max)
      save()
      // A hidden page may be going away (`pagehide` follows): what is added then waits for `unload`'s sendBeacon.
      if (q.length >= batch && !failures && document.visibilityState !== 'hidden') flush()
      else schedule(FLUSH_MS)
    },
    flush,
    unload() {
      // During an outage keep everything stored for the next page load rather than lose it to a beacon.
      if (failures) return
      const rest = q.filter((e) => !inflight.has(e.uuid))
      for (let i = 0; i < rest.length; i += batch) {
        const some = rest.slice(i, i + batch)
        try {
          // A string body goes as text/plain: a CORS-simple request, no preflight, uncompressed.
          if (navigator.sendBeacon(url, body(some))) remove(new Set(some.map((e) => e.uuid)))
        } catch {
          // no sendBeacon: the events stay stored and go with the next page load
        }
      }
    },
  }
}
