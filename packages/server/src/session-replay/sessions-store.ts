import { sql } from 'kysely';
import type { Executor } from '../db/schema';

export const sessionsStore = {
  /** The recordings a project keeps (sessions with snapshots) and the bytes their blocks take. */
  async usage(db: Executor, projectId: number): Promise<{ bytes: number; sessions: number }> {
    const row = await db
      .selectFrom('replay_sessions')
      .select([sql<string | number | null>`sum(size_bytes)`.as('bytes'), sql<string | number>`count(*)`.as('sessions')])
      .where('project_id', '=', projectId)
      .where('start_time', 'is not', null)
      .executeTakeFirst();
    return { bytes: Number(row?.bytes ?? 0), sessions: Number(row?.sessions ?? 0) };
  },
};
