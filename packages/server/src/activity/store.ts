import type { Insertable } from 'kysely';
import { countThenPage } from '../db/page';
import type { ActivityLogTable, Executor } from '../db/schema';

/** How a change was made: in the web app (a session's user), with a personal API key, or by the command line. */
export type ActorType = 'user' | 'personal_api_key' | 'command_line';

export interface ActivityFilter {
  /** null: the organization's log (keys, members, invites). */
  projectId: number | null;
  scope?: string;
  itemId?: string;
  /** Changes by this user, in the web app or with one of their keys. */
  userId?: number;
  actorType?: ActorType;
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
    if (filter.userId !== undefined) query = query.where('a.user_id', '=', filter.userId);
    // The kind of actor, as the service tells it from the two ids (see ActivityService.list).
    if (filter.actorType === 'personal_api_key') query = query.where('a.api_key_id', 'is not', null);
    else if (filter.actorType !== undefined)
      query = query.where('a.api_key_id', 'is', null).where('a.user_id', filter.actorType === 'user' ? 'is not' : 'is', null);
    return countThenPage(query, filter.limit, filter.offset, (page) =>
      page.selectAll('a').select(['u.email as user_email', 'u.name as user_name']).orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').execute(),
    );
  },
};
