import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Changes } from '../changes';
import { DEFAULT_STREAM_MAX_CONNECTIONS_PER_TOKEN } from '../config';

/** Notices of one burst of changes go out together, at most this long after its first change. */
export const COALESCE_MS = 100;
/** A comment every this many milliseconds keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 25_000;
/** What a browser's EventSource waits before it reconnects, in milliseconds (sent as `retry:`). */
const RETRY_MS = 2000;
/** Streams written in one turn of the event loop; the rest wait for the next turn, so a fan-out to thousands never blocks it long. */
const WRITES_PER_TURN = 2000;

const PING = ': ping\n\n';

/**
 * The open `/flags/stream` streams of this process, by project, and what they are told: `Changes` is heard once here
 * (its `flags` per project, `gap` for all), a burst of changes is told as one notice per project, and each stream
 * gets a comment every `HEARTBEAT_MS`. A project's version is this instance's id and the sequence number of its last
 * change here: it changes with every change, and a reconnecting client whose `Last-Event-ID` is not the current one
 * is told at once. A stream that has not taken its previous write when the next comes (a client that does not read)
 * is dropped, so what one holds in memory is one message beyond the socket's buffers.
 */
export class FlagStreamHub {
  private readonly streams = new Map<number, Set<ServerResponse>>();
  /** The sequence number of each project's last change here (one number a project that ever changed). */
  private readonly changedAt = new Map<number, number>();
  /** The sequence number of the last change of every project (a `gap`: notifications may have been lost). */
  private allChangedAt = 0;
  private seq = 0;
  private readonly instance = randomBytes(4).toString('hex');
  private pending = new Set<number>();
  private pendingAll = false;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private closed = false;

  constructor(
    changes: Changes,
    readonly maxPerProject = DEFAULT_STREAM_MAX_CONNECTIONS_PER_TOKEN,
    heartbeatMs = HEARTBEAT_MS,
  ) {
    changes.on('flags', (projectId) => {
      this.changedAt.set(projectId, ++this.seq);
      if (this.streams.has(projectId)) this.schedule(() => this.pending.add(projectId));
    });
    changes.on('gap', () => {
      this.allChangedAt = ++this.seq;
      if (this.streams.size) this.schedule(() => (this.pendingAll = true));
    });
    this.heartbeat = setInterval(() => this.fanOut([...this.streams.values()], PING), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Open streams of a project. */
  count(projectId: number): number {
    return this.streams.get(projectId)?.size ?? 0;
  }

  /** Open streams of every project. */
  get size(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /** True when the project may open another stream. */
  hasRoom(projectId: number): boolean {
    return !this.closed && this.count(projectId) < this.maxPerProject;
  }

  /** The project's current version (what notices carry as `id` and `etag`). */
  version(projectId: number): string {
    return `${this.instance}-${Math.max(this.changedAt.get(projectId) ?? 0, this.allChangedAt)}`;
  }

  /**
   * Takes a response whose headers are written: sends the opening comment, the retry delay and the current version as
   * its event id, a notice at once when the client's last event id is another version, and keeps it until it closes.
   */
  add(projectId: number, response: ServerResponse, lastEventId: string | undefined): void {
    let set = this.streams.get(projectId);
    if (!set) this.streams.set(projectId, (set = new Set()));
    set.add(response);
    response.once('close', () => {
      // A client that went away may leave its half of the connection open (its FIN read, ours not sent): close it.
      response.destroy();
      set.delete(response);
      if (set.size === 0 && this.streams.get(projectId) === set) this.streams.delete(projectId);
    });
    const version = this.version(projectId);
    response.write(`: connected\nretry: ${RETRY_MS}\nid: ${version}\n\n`);
    if (lastEventId !== undefined && lastEventId !== version) response.write(notice(version));
  }

  /** Ends every stream (clients reconnect, to another instance or after the restart) and stops the timers. */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    for (const set of this.streams.values()) for (const response of set) response.end();
    this.streams.clear();
  }

  private schedule(mark: () => void) {
    mark();
    this.flushTimer ??= setTimeout(() => this.flush(), COALESCE_MS);
  }

  private flush() {
    this.flushTimer = null;
    const projects = this.pendingAll ? [...this.streams.keys()] : [...this.pending];
    this.pending = new Set();
    this.pendingAll = false;
    for (const projectId of projects) {
      const set = this.streams.get(projectId);
      if (set) this.fanOut([set], notice(this.version(projectId)));
    }
  }

  /** Writes `chunk` to every stream of these sets, `WRITES_PER_TURN` a turn. */
  private fanOut(sets: Set<ServerResponse>[], chunk: string) {
    const targets: ServerResponse[] = [];
    for (const set of sets) for (const response of set) targets.push(response);
    const writeFrom = (start: number) => {
      const end = Math.min(targets.length, start + WRITES_PER_TURN);
      for (let i = start; i < end; i++) send(targets[i]!, chunk);
      if (end < targets.length) setImmediate(writeFrom, end);
    };
    writeFrom(0);
  }
}

/** Writes to a stream, or drops it when it still holds a write it could not pass on (a client that does not read). */
function send(response: ServerResponse, chunk: string) {
  if (response.destroyed || response.writableEnded) return;
  if (response.writableNeedDrain) response.destroy();
  else response.write(chunk);
}

/** The OFREP notice that a project's answers may have changed. */
export const notice = (version: string) => `id: ${version}\nevent: message\ndata: {"type":"refetchEvaluation","etag":"${version}"}\n\n`;
