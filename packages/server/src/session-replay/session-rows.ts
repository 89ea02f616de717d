import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../db/schema';
import type { BatchMetadata } from './metadata';

/** URLs kept per session: the first ones visited. */
export const MAX_URLS_PER_SESSION = 100;

/**
 * The recording id under which a person's batches are kept when their session id is already another person's:
 * `<session_id>~<first 12 hex digits of sha256(distinct_id)>`. Their batches are kept, never mixed into the first
 * person's recording.
 */
export const recordingIdOf = (sessionId: string, distinctId: string) => `${sessionId}~${createHash('sha256').update(distinctId).digest('hex').slice(0, 12)}`;

/** The person a distinct id names, when known. */
export async function personOf(db: Executor, projectId: number, distinctId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('person_distinct_ids')
    .select('person_id')
    .where('project_id', '=', projectId)
    .where('distinct_id', '=', distinctId)
    .executeTakeFirst();
  return row?.person_id;
}

/** A block's share of its session's metadata. */
export interface BlockMetadata extends BatchMetadata {
  events: number;
  skipped: number;
  bytes: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Adds a block to its session's row (made when missing, owned by `distinctId`): earliest start (and its first URL),
 * latest end, sums of the counts, `blocks` more blocks. Only a row owned by `distinctId` is added to (a person who
 * identified mid-session sends under the id that owns it: `ReplayStorage`). Returns the block's sequence number in its session,
 * or undefined when the row is another person's.
 */
export async function addBlockToSession(
  db: Executor,
  row: { projectId: number; sessionId: string; distinctId: string; personId: number | undefined },
  meta: BlockMetadata,
  blocks: 0 | 1,
  now: string,
): Promise<number | undefined> {
  const start = Number.isFinite(meta.start) ? iso(meta.start) : null;
  const end = Number.isFinite(meta.end) ? iso(meta.end) : null;
  const startUrl = meta.urls[0] ?? null;
  const personId = row.personId ?? null;
  const { rows } = await sql<{ block_count: number }>`
    insert into replay_sessions (project_id, session_id, distinct_id, person_id, start_time, end_time, start_url, active_ms,
      click_count, keypress_count, console_log_count, console_warn_count, console_error_count, exception_count, event_count,
      skipped_count, block_count, size_bytes, created_at, updated_at)
    values (${row.projectId}, ${row.sessionId}, ${row.distinctId}, ${personId}, ${start}, ${end}, ${startUrl}, ${meta.activeMs},
      ${meta.clicks}, ${meta.keypresses}, ${meta.consoleLogs}, ${meta.consoleWarns}, ${meta.consoleErrors}, 0, ${meta.events},
      ${meta.skipped}, ${blocks}, ${meta.bytes}, ${now}, ${now})
    on conflict (project_id, session_id) do update set
      start_url = case when excluded.start_time is not null and (replay_sessions.start_time is null or excluded.start_time < replay_sessions.start_time)
        then coalesce(excluded.start_url, replay_sessions.start_url) else coalesce(replay_sessions.start_url, excluded.start_url) end,
      start_time = case when excluded.start_time is not null and (replay_sessions.start_time is null or excluded.start_time < replay_sessions.start_time)
        then excluded.start_time else replay_sessions.start_time end,
      end_time = case when excluded.end_time is not null and (replay_sessions.end_time is null or excluded.end_time > replay_sessions.end_time)
        then excluded.end_time else replay_sessions.end_time end,
      person_id = coalesce(replay_sessions.person_id, excluded.person_id),
      active_ms = replay_sessions.active_ms + excluded.active_ms,
      click_count = replay_sessions.click_count + excluded.click_count,
      keypress_count = replay_sessions.keypress_count + excluded.keypress_count,
      console_log_count = replay_sessions.console_log_count + excluded.console_log_count,
      console_warn_count = replay_sessions.console_warn_count + excluded.console_warn_count,
      console_error_count = replay_sessions.console_error_count + excluded.console_error_count,
      event_count = replay_sessions.event_count + excluded.event_count,
      skipped_count = replay_sessions.skipped_count + excluded.skipped_count,
      block_count = replay_sessions.block_count + excluded.block_count,
      size_bytes = replay_sessions.size_bytes + excluded.size_bytes,
      updated_at = excluded.updated_at
    where replay_sessions.distinct_id = excluded.distinct_id
    returning block_count`.execute(db);
  return rows[0]?.block_count;
}

/** Records the URLs a session visited, the first MAX_URLS_PER_SESSION of them. */
export async function addSessionUrls(db: Executor, projectId: number, sessionId: string, urls: readonly string[]): Promise<void> {
  if (!urls.length) return;
  const { count } = await db
    .selectFrom('replay_session_urls')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('project_id', '=', projectId)
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const room = MAX_URLS_PER_SESSION - Number(count);
  if (room <= 0) return;
  await db
    .insertInto('replay_session_urls')
    .values(urls.slice(0, room).map((url) => ({ project_id: projectId, session_id: sessionId, url })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Counts exceptions into their sessions' rows (made when missing: a session may name an exception before its first
 * snapshot arrives, its start then null), owned by the first distinct id that named it.
 */
export async function addExceptions(
  db: Executor,
  projectId: number,
  counts: ReadonlyMap<string, { distinctId: string; exceptions: number }>,
  now: string,
): Promise<void> {
  for (const [sessionId, { distinctId, exceptions }] of counts) {
    await sql`
      insert into replay_sessions (project_id, session_id, distinct_id, person_id, start_time, end_time, start_url, active_ms,
        click_count, keypress_count, console_log_count, console_warn_count, console_error_count, exception_count, event_count,
        skipped_count, block_count, size_bytes, created_at, updated_at)
      values (${projectId}, ${sessionId}, ${distinctId}, null, null, null, null, 0, 0, 0, 0, 0, 0, ${exceptions}, 0, 0, 0, 0, ${now}, ${now})
      on conflict (project_id, session_id) do update set
        exception_count = replay_sessions.exception_count + excluded.exception_count, updated_at = excluded.updated_at`.execute(db);
  }
}

/** Sets the person of the sessions named whose person was not known yet, from their distinct id. */
export async function fillSessionPersons(db: Executor, projectId: number, sessionIds: readonly string[]): Promise<void> {
  for (let i = 0; i < sessionIds.length; i += 500) {
    await db
      .updateTable('replay_sessions')
      .set((eb) => ({
        person_id: eb
          .selectFrom('person_distinct_ids')
          .select('person_distinct_ids.person_id')
          .whereRef('person_distinct_ids.project_id', '=', 'replay_sessions.project_id')
          .whereRef('person_distinct_ids.distinct_id', '=', 'replay_sessions.distinct_id'),
      }))
      .where('project_id', '=', projectId)
      .where('session_id', 'in', sessionIds.slice(i, i + 500))
      .where('person_id', 'is', null)
      .execute();
  }
}
