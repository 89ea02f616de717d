/** SQLite's, Node's and PostgreSQL's (SQLSTATE disk_full: "could not extend file") codes for a write refused for lack of disk space. */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', '53100']);

/** True when `error` is a write refused because the database's disk is full. */
export function isDiskFull(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isDiskFull);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DISK_FULL_CODES.has(code);
}

/**
 * How long the disk counts as full after the last write refused for it, unless a commit shows room first. Space may
 * be freed while nothing writes (a load balancer that heeds `/_health` sends nothing): the report must end by itself.
 */
export const DISK_FULL_FOR_MS = 30_000;

/**
 * Whether the database's writes fail for lack of disk space, as its queries tell (`openDatabase` feeds it every
 * query's outcome): full from a write refused for it (`isDiskFull`) until a transaction commits. `/_health` reports
 * it; `onChange` hears it start and end, once each, where every refused request would be a line of the log.
 */
export class DiskSpace {
  private full = false;
  private refusedAt = 0;
  private readonly listeners = new Set<(full: boolean) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A write was refused for lack of space. */
  refused() {
    this.refusedAt = this.now();
    if (this.full) return;
    this.full = true;
    for (const listener of this.listeners) listener(true);
  }

  /** A transaction committed: there was room for it. */
  committed() {
    if (!this.full) return;
    this.full = false;
    for (const listener of this.listeners) listener(false);
  }

  /** True while writes fail for lack of space: one was refused within DISK_FULL_FOR_MS, and nothing committed since. */
  get isFull(): boolean {
    return this.full && this.now() - this.refusedAt < DISK_FULL_FOR_MS;
  }

  /** Calls `listener` with true as writes start failing for lack of space and false once one commits; returns the unsubscribe. */
  onChange(listener: (full: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
