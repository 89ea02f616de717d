import { recordActivity, type Change } from '../activity/service';
import type { Actor } from '../http/actor';
import type { Dialect } from '../db/database';
import type { Executor } from '../db/schema';
import { issueStore, type IssueRow } from './store';

/**
 * Merges the issues `others` into `into`, in the caller's transaction (which holds the project's ingest lock on
 * PostgreSQL): their fingerprints, occurrences and people move to it, they are deleted, and the activity log says so
 * on each (`why`: changes that say what made the merge, beside the merged issues and the fingerprints). `into` keeps
 * its id, name, description and status. Returns `into` as it now is.
 */
export async function mergeIssues(
  tx: Executor,
  dialect: Dialect,
  into: IssueRow,
  others: readonly IssueRow[],
  actor: Actor,
  why: Change[] = [],
): Promise<{ row: IssueRow; fingerprints: string[] }> {
  const before = (await issueStore.fingerprints(tx, [into.id])).get(into.id) ?? [];
  await issueStore.merge(
    tx,
    dialect,
    into.id,
    others.map((o) => o.id),
  );
  const row = (await issueStore.get(tx, into.project_id, into.id))!;
  const fingerprints = (await issueStore.fingerprints(tx, [into.id])).get(into.id) ?? [];
  await recordActivity(tx, actor, {
    projectId: into.project_id,
    scope: 'ErrorTrackingIssue',
    itemId: into.id,
    activity: 'updated',
    name: into.name,
    changes: [
      { field: 'merged', before: null, after: others.map((o) => ({ id: o.id, name: o.name })) },
      { field: 'fingerprints', before, after: fingerprints },
      ...why,
    ],
  });
  for (const other of others) {
    await recordActivity(tx, actor, {
      projectId: into.project_id,
      scope: 'ErrorTrackingIssue',
      itemId: other.id,
      activity: 'deleted',
      name: other.name,
      changes: why.length ? [{ field: 'merged_into', before: null, after: { id: into.id, name: into.name } }, ...why] : null,
    });
  }
  return { row, fingerprints };
}
