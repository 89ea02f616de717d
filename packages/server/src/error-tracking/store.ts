import { sql, type Insertable, type Selectable } from 'kysely';
import { countThenPage, rowsWithinBytes } from '../db/page';
import { containsIgnoringCase } from '../db/like';
import type { Dialect } from '../db/database';
import type { ErrorTrackingIssueTable, Executor } from '../db/schema';
import { jsonTextAt } from '../db/json-text';
import { comparable, stacksOfEvent, wholeBytes } from '../events/store';

export type IssueRow = Selectable<ErrorTrackingIssueTable>;
export type NewIssue = Insertable<ErrorTrackingIssueTable>;

export const ISSUE_ORDERS = ['last_seen', 'occurrences', 'people'] as const;
export type IssueOrder = (typeof ISSUE_ORDERS)[number];

/** Values per IN list, and rows per insert: well below both databases' parameter limits. */
const CHUNK = 500;
/** Issue rows per upsert (13 columns each). */
const ISSUE_CHUNK = 200;

const chunks = <T>(items: readonly T[], size = CHUNK) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** `greater(a, b)` of two ISO text columns, the same on SQLite and PostgreSQL. */
const later = (a: string, b: string) => sql<string>`case when ${sql.ref(b)} > ${sql.ref(a)} then ${sql.ref(b)} else ${sql.ref(a)} end`;
const earlier = (a: string, b: string) => sql<string>`case when ${sql.ref(b)} < ${sql.ref(a)} then ${sql.ref(b)} else ${sql.ref(a)} end`;

/** An existing issue as ingestion sees it. */
export type KnownIssue = Pick<IssueRow, 'id' | 'status' | 'name' | 'description'>;

export interface IssueFilter {
  status?: string;
  search?: string;
  orderBy: IssueOrder;
  limit: number;
  offset: number;
}

interface PersonCount {
  issue_id: string;
  distinct_id: string;
  occurrences: number | string;
}

/** One occurrence's event, as stored. */
export interface OccurrenceEvent {
  uuid: string;
  distinct_id: string;
  timestamp: string;
  properties: string;
  /** Its stack traces stored apart (`events/store.ts`), or null. */
  stacks: string | null;
}

/** SQL for error tracking issues, their fingerprints, occurrences and people. */
export const issueStore = {
  // ---- ingestion ----

  /** The issues (id and status) the given fingerprints of a project map to. */
  async byFingerprints(db: Executor, projectId: number, fingerprints: string[]): Promise<Map<string, KnownIssue>> {
    const found = new Map<string, KnownIssue>();
    for (const part of chunks(fingerprints, 1000)) {
      const rows = await db
        .selectFrom('error_tracking_fingerprints as f')
        .innerJoin('error_tracking_issues as i', 'i.id', 'f.issue_id')
        .select(['f.fingerprint', 'i.id', 'i.status', 'i.name', 'i.description'])
        .where('f.project_id', '=', projectId)
        .where('f.fingerprint', 'in', part)
        .execute();
      for (const { fingerprint, ...issue } of rows) found.set(fingerprint, issue);
    }
    return found;
  },

  /**
   * Adds occurrences to issues, creating those that do not exist: each row's `occurrences` and `people` are added,
   * `first_seen`/`last_seen` widened, and a `resolved` issue becomes `active` with `regressed_at` set. An existing
   * issue keeps its name and description (the row's are used only to create it).
   */
  async addToIssues(db: Executor, rows: NewIssue[]): Promise<void> {
    for (const part of chunks(rows, ISSUE_CHUNK)) {
      await db
        .insertInto('error_tracking_issues')
        .values(part)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({
            occurrences: sql`error_tracking_issues.occurrences + excluded.occurrences`,
            people: sql`error_tracking_issues.people + excluded.people`,
            first_seen: earlier('error_tracking_issues.first_seen', 'excluded.first_seen'),
            last_seen: later('error_tracking_issues.last_seen', 'excluded.last_seen'),
            status: sql`case when error_tracking_issues.status = 'resolved' then 'active' else error_tracking_issues.status end`,
            regressed_at: sql`case when error_tracking_issues.status = 'resolved' then excluded.regressed_at else error_tracking_issues.regressed_at end`,
            updated_at: sql`case when error_tracking_issues.status = 'resolved' then excluded.updated_at else error_tracking_issues.updated_at end`,
          }),
        )
        .execute();
    }
  },

  async insertFingerprints(db: Executor, rows: { project_id: number; fingerprint: string; issue_id: string; created_at: string }[]): Promise<void> {
    for (const part of chunks(rows)) {
      await db
        .insertInto('error_tracking_fingerprints')
        .values(part)
        .onConflict((oc) => oc.columns(['project_id', 'fingerprint']).doNothing())
        .execute();
    }
  },

  async insertOccurrences(
    db: Executor,
    dialect: Dialect,
    rows: { project_id: number; issue_id: string; event_uuid: string; distinct_id: string; timestamp: string }[],
  ) {
    if (!rows.length) return;
    // The rows as one JSON parameter (as events are inserted on PostgreSQL): cheaper to build, send and plan than 5
    // parameters a row, and one statement on SQLite too, whose text (and prepared statement) stays the same.
    if (dialect === 'postgres') {
      await sql`insert into error_tracking_occurrences (project_id, issue_id, event_uuid, distinct_id, timestamp)
        select project_id, issue_id, event_uuid, distinct_id, timestamp from json_to_recordset(${JSON.stringify(rows)}::json)
        as r(project_id int, issue_id text, event_uuid text, distinct_id text, timestamp text)`.execute(db);
      return;
    }
    await sql`insert into error_tracking_occurrences (project_id, issue_id, event_uuid, distinct_id, timestamp)
      select value ->> 'project_id', value ->> 'issue_id', value ->> 'event_uuid', value ->> 'distinct_id', value ->> 'timestamp'
      from json_each(${JSON.stringify(rows)})`.execute(db);
  },

  /**
   * Adds occurrences to the issues' people (one row per issue and distinct id in `rows`), and counts the people each
   * issue did not have yet: a row comes back with the occurrences it was sent only when it was inserted.
   */
  async addPeople(
    db: Executor,
    dialect: Dialect,
    rows: { issue_id: string; distinct_id: string; occurrences: number; last_seen: string }[],
  ): Promise<Map<string, number>> {
    const added = new Map<string, number>();
    if (!rows.length) return added;
    const upsert =
      dialect === 'postgres'
        ? sql<PersonCount>`insert into error_tracking_issue_people (issue_id, distinct_id, occurrences, last_seen)
        select issue_id, distinct_id, occurrences, last_seen from json_to_recordset(${JSON.stringify(rows)}::json)
        as r(issue_id text, distinct_id text, occurrences bigint, last_seen text)
        on conflict (issue_id, distinct_id) do update set occurrences = error_tracking_issue_people.occurrences + excluded.occurrences,
        last_seen = ${later('error_tracking_issue_people.last_seen', 'excluded.last_seen')}
        returning issue_id, distinct_id, occurrences`
        : // SQLite: the rows as one JSON parameter too (`where true` tells an upsert's select from its join).
          sql<PersonCount>`insert into error_tracking_issue_people (issue_id, distinct_id, occurrences, last_seen)
        select value ->> 'issue_id', value ->> 'distinct_id', value ->> 'occurrences', value ->> 'last_seen' from json_each(${JSON.stringify(rows)}) where true
        on conflict (issue_id, distinct_id) do update set occurrences = error_tracking_issue_people.occurrences + excluded.occurrences,
        last_seen = ${later('error_tracking_issue_people.last_seen', 'excluded.last_seen')}
        returning issue_id, distinct_id, occurrences`;
    const sent = new Map(rows.map((r) => [`${r.issue_id}\n${r.distinct_id}`, r.occurrences]));
    for (const row of (await upsert.execute(db)).rows) {
      if (Number(row.occurrences) === sent.get(`${row.issue_id}\n${row.distinct_id}`)) added.set(row.issue_id, (added.get(row.issue_id) ?? 0) + 1);
    }
    return added;
  },

  /** Adds people to issues' counts, in one statement. */
  async addPeopleCounts(db: Executor, counts: Map<string, number>): Promise<void> {
    for (const part of chunks([...counts], ISSUE_CHUNK)) {
      const added = sql.join(
        part.map(([id, people]) => sql`when ${id} then cast(${people} as integer)`),
        sql` `,
      );
      await db
        .updateTable('error_tracking_issues')
        .set({ people: sql`people + case id ${added} end` })
        .where(
          'id',
          'in',
          part.map(([id]) => id),
        )
        .execute();
    }
  },

  // ---- regrouping (regroup.ts) ----

  /** The ids of a project's open issues (active or suppressed) seen since `since`. */
  async openSince(db: Executor, projectId: number, since: string): Promise<string[]> {
    const rows = await db
      .selectFrom('error_tracking_issues')
      .select('id')
      .where('project_id', '=', projectId)
      .where('status', 'in', ['active', 'suppressed'])
      .where('last_seen', '>=', since)
      .execute();
    return rows.map((r) => r.id);
  },

  /**
   * One event (its row id) for each distinct stack and fingerprint among the issues' occurrences since `since` whose
   * event is of `release`: what regrouping reads again. At most `limit`.
   */
  async releaseStacks(db: Executor, dialect: Dialect, projectId: number, issueIds: string[], since: string, release: string, limit: number) {
    if (!issueIds.length || limit <= 0) return [];
    const occurrences = db
      .selectFrom('error_tracking_occurrences as o')
      .innerJoin('events as e', (join) => join.onRef('e.project_id', '=', 'o.project_id').onRef('e.uuid', '=', 'o.event_uuid'))
      .select(['e.id', 'e.exception_stacks as stacks', jsonTextAt(dialect, 'e.properties', ['$exception_fingerprint']).as('fingerprint')])
      .where('o.project_id', '=', projectId)
      .where('o.issue_id', 'in', issueIds)
      .where('o.timestamp', '>=', since)
      .where(jsonTextAt(dialect, 'e.properties', ['$release']), '=', comparable(release));
    const rows = await db
      .selectFrom(occurrences.as('r'))
      .select(sql<number | string>`max(r.id)`.as('id'))
      .groupBy(['r.stacks', 'r.fingerprint'])
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.id));
  },

  /** The events of these row ids, their properties and stack traces as stored (see `wholeProperties`). */
  eventsWithStacks(db: Executor, projectId: number, ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return db
      .selectFrom('events as e')
      .leftJoin('exception_stacks as l', (join) => join.on(stacksOfEvent))
      .select(['e.properties', 'l.stacks'])
      .where('e.project_id', '=', projectId)
      .where('e.id', 'in', ids)
      .execute();
  },

  // ---- the API ----

  get(db: Executor, projectId: number, id: string): Promise<IssueRow | undefined> {
    return db.selectFrom('error_tracking_issues').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  },

  /** The issues of a project among `ids`. */
  many(db: Executor, projectId: number, ids: string[]): Promise<IssueRow[]> {
    return db.selectFrom('error_tracking_issues').selectAll().where('project_id', '=', projectId).where('id', 'in', ids).execute();
  },

  page(db: Executor, projectId: number, filter: IssueFilter) {
    let query = db.selectFrom('error_tracking_issues').where('project_id', '=', projectId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.search) {
      const term = filter.search;
      query = query.where((eb) => eb.or([containsIgnoringCase('name', term), containsIgnoringCase('description', term)]));
    }
    return countThenPage(query, filter.limit, filter.offset, (page) => page.selectAll().orderBy(filter.orderBy, 'desc').orderBy('id', 'desc').execute());
  },

  /** The fingerprints of each of the issues. */
  async fingerprints(db: Executor, issueIds: string[]): Promise<Map<string, string[]>> {
    const byIssue = new Map<string, string[]>(issueIds.map((id) => [id, []]));
    if (!issueIds.length) return byIssue;
    const rows = await db
      .selectFrom('error_tracking_fingerprints')
      .select(['issue_id', 'fingerprint'])
      .where('issue_id', 'in', issueIds)
      .orderBy('created_at')
      .orderBy('fingerprint')
      .execute();
    for (const row of rows) byIssue.get(row.issue_id)?.push(row.fingerprint);
    return byIssue;
  },

  update(db: Executor, id: string, changes: Partial<Pick<IssueRow, 'name' | 'description' | 'status' | 'updated_at'>>) {
    return db.updateTable('error_tracking_issues').set(changes).where('id', '=', id).execute();
  },

  /** The event of an issue's newest occurrence (no count of them all: an issue may have millions). */
  latestEvent(db: Executor, projectId: number, issueId: string): Promise<OccurrenceEvent | undefined> {
    return db
      .selectFrom('error_tracking_occurrences as o')
      .innerJoin('events as e', (join) => join.onRef('e.project_id', '=', 'o.project_id').onRef('e.uuid', '=', 'o.event_uuid'))
      .where('o.issue_id', '=', issueId)
      .where('o.project_id', '=', projectId)
      .leftJoin('exception_stacks as l', (join) => join.on(stacksOfEvent))
      .select(['e.uuid', 'e.distinct_id', 'e.timestamp', 'e.properties', 'l.stacks'])
      .orderBy('o.timestamp', 'desc')
      .orderBy('o.id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /** An issue's occurrences, newest first, with their events: at most `limit`, and no more than `maxBytes` of properties (one at least). */
  async events(db: Executor, projectId: number, issueId: string, limit: number, offset: number, maxBytes: number) {
    const query = db
      .selectFrom('error_tracking_occurrences as o')
      .innerJoin('events as e', (join) => join.onRef('e.project_id', '=', 'o.project_id').onRef('e.uuid', '=', 'o.event_uuid'))
      .where('o.issue_id', '=', issueId)
      .where('o.project_id', '=', projectId);
    return countThenPage(query, limit, offset, async (page) => {
      const sizes = await page
        .leftJoin('exception_stacks as l', (join) => join.on(stacksOfEvent))
        .select(['e.id', wholeBytes.as('bytes')])
        .orderBy('o.timestamp', 'desc')
        .orderBy('o.id', 'desc')
        .execute();
      const order = new Map(sizes.map((s, i) => [Number(s.id), i]));
      return rowsWithinBytes(sizes, maxBytes, async (ids) => {
        const rows = await db
          .selectFrom('events as e')
          .leftJoin('exception_stacks as l', (join) => join.on(stacksOfEvent))
          .select(['e.id', 'e.uuid', 'e.distinct_id', 'e.timestamp', 'e.properties', 'l.stacks'])
          .where('e.id', 'in', ids)
          .execute();
        return rows.sort((a, b) => order.get(Number(a.id))! - order.get(Number(b.id))!).map(({ id: _id, ...event }): OccurrenceEvent => event);
      });
    });
  },

  /** Occurrences and distinct ids per UTC day from `since` (a date, inclusive). */
  volume(db: Executor, issueId: string, since: string) {
    return db
      .selectFrom('error_tracking_occurrences')
      .select([
        sql<string>`substr(timestamp, 1, 10)`.as('date'),
        sql<number | string>`count(*)`.as('occurrences'),
        sql<number | string>`count(distinct distinct_id)`.as('people'),
      ])
      .where('issue_id', '=', issueId)
      .where('timestamp', '>=', since)
      .groupBy(sql`substr(timestamp, 1, 10)`)
      .execute();
  },

  /** An issue's people, most occurrences first, with their person's uuid and properties (by the distinct id's person now). */
  people(db: Executor, projectId: number, issueId: string, limit: number, offset: number) {
    const query = db
      .selectFrom('error_tracking_issue_people as ip')
      .leftJoin('person_distinct_ids as d', (join) => join.on('d.project_id', '=', projectId).onRef('d.distinct_id', '=', 'ip.distinct_id'))
      .leftJoin('persons as p', 'p.id', 'd.person_id')
      .where('ip.issue_id', '=', issueId);
    return countThenPage(query, limit, offset, (page) =>
      page
        .select(['ip.distinct_id', 'ip.occurrences', 'ip.last_seen', 'p.uuid as person_id', 'p.properties'])
        .orderBy('ip.occurrences', 'desc')
        .orderBy('ip.last_seen', 'desc')
        .orderBy('ip.distinct_id')
        .execute(),
    );
  },

  /**
   * Moves the fingerprints, occurrences and people of `others` into `into` and deletes them; recounts `into`
   * (occurrences, people, first and last seen) from what it now holds.
   */
  async merge(db: Executor, dialect: Dialect, into: string, others: string[]): Promise<void> {
    await db.updateTable('error_tracking_fingerprints').set({ issue_id: into }).where('issue_id', 'in', others).execute();
    await db.updateTable('error_tracking_occurrences').set({ issue_id: into }).where('issue_id', 'in', others).execute();
    const moving = await db
      .selectFrom('error_tracking_issue_people')
      .select(['distinct_id', sql<number | string>`sum(occurrences)`.as('occurrences'), sql<string>`max(last_seen)`.as('last_seen')])
      .where('issue_id', 'in', others)
      .groupBy('distinct_id')
      .execute();
    await db.deleteFrom('error_tracking_issue_people').where('issue_id', 'in', others).execute();
    await this.addPeople(
      db,
      dialect,
      moving.map((p) => ({ issue_id: into, distinct_id: p.distinct_id, occurrences: Number(p.occurrences), last_seen: p.last_seen })),
    );
    const merged = await db
      .selectFrom('error_tracking_issues')
      .select([
        sql<number | string>`sum(occurrences)`.as('occurrences'),
        sql<string>`min(first_seen)`.as('first_seen'),
        sql<string>`max(last_seen)`.as('last_seen'),
      ])
      .where('id', 'in', [into, ...others])
      .executeTakeFirstOrThrow();
    const { people } = await db
      .selectFrom('error_tracking_issue_people')
      .select(sql<number | string>`count(*)`.as('people'))
      .where('issue_id', '=', into)
      .executeTakeFirstOrThrow();
    await db.deleteFrom('error_tracking_issues').where('id', 'in', others).execute();
    await db
      .updateTable('error_tracking_issues')
      .set({ occurrences: Number(merged.occurrences), people: Number(people), first_seen: merged.first_seen, last_seen: merged.last_seen })
      .where('id', '=', into)
      .execute();
  },
};
