import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Db } from './db/database';

const CHANNEL = 'service_flags';

/**
 * Notifications of writes that invalidate cached state (flag definitions per project). On PostgreSQL
 * they reach every service instance on the same database through LISTEN/NOTIFY.
 */
export class Changes extends EventEmitter<{ flags: [projectId: number]; gap: [] }> {
  private readonly instance = randomUUID();

  constructor(private readonly db?: Pick<Db, 'publish' | 'subscribe'>) {
    super();
    db?.subscribe(
      CHANNEL,
      (payload) => {
        const [from, projectId] = payload.split(':');
        if (from !== this.instance) this.emit('flags', Number(projectId));
      },
      () => this.emit('gap'),
    );
  }

  /** Call after a write that changes a project's flags (or what their evaluation reads) has committed. */
  flagsChanged(projectId: number) {
    this.emit('flags', projectId);
    // A lost notification is bounded by the flag cache's time to live.
    void this.db?.publish(CHANNEL, `${this.instance}:${projectId}`).catch(() => undefined);
  }
}
