import type { Insertable } from 'kysely';
import { countThenPage } from '../db/page';
import type { ActivityLogTable, Executor } from '../db/schema';

export interface ActivityFilter {
  /** null: the organization's log (keys, members, invites). */
  projectId: number | null;
  scope?: string;
  itemId?: string;
  limit: number;
  offset: number;
}

/** SQL for the activity log. */
export const activityStore = {
  async insert(db: Executor, row: Insertable<ActivityLogTable>): Promise<void> {
    await db.insertInto('activity_log').values(row).execute();
  },

  /** A page of entries, newest first, with the current email and name of their user (null when the user is gone). */
  page(db: Executor, filter: ActivityFilter) {
    let query = db
      .selectFrom('activity_log as a')
      .leftJoin('users as u', 'u.id', 'a.user_id')
      .where('a.project_id', filter.projectId === null ? 'is' : '=', filter.projectId);
    if (filter.scope !== undefined) query = query.where('a.scope', '=', filter.scope);
    if (filter.itemId !== undefined) query = query.where('a.item_id', '=', filter.itemId);
    return countThenPage(query, filter.limit, filter.offset, (page) =>
      page.selectAll('a').select(['u.email as user_email', 'u.name as user_name']).orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').execute(),
    );
  },
};
