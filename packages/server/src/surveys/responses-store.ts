import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor, SurveyEventTable, SurveyResponseTable, SurveyTable } from '../db/schema';

/** Rows per statement: well within both databases' limits on bound parameters. */
const CHUNK = 500;

const chunks = <T>(items: readonly T[]) => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

/** What recording a survey's events reads of it. */
export type SurveyState = Pick<
  Selectable<SurveyTable>,
  'id' | 'questions' | 'start_date' | 'end_date' | 'archived' | 'responses_limit' | 'current_iteration' | 'enable_partial_responses'
>;

export type ResponseRow = Selectable<SurveyResponseTable>;

/** SQL of ingestion's survey writes, in the ingest transaction (the project's ingest lock is held: no one else writes them). */
export const responseStore = {
  async surveys(tx: Executor, projectId: number, ids: readonly string[]): Promise<SurveyState[]> {
    const found: SurveyState[] = [];
    for (const part of chunks(ids)) {
      found.push(
        ...(await tx
          .selectFrom('surveys')
          .select(['id', 'questions', 'start_date', 'end_date', 'archived', 'responses_limit', 'current_iteration', 'enable_partial_responses'])
          .where('project_id', '=', projectId)
          .where('id', 'in', part)
          .execute()),
      );
    }
    return found;
  },

  /** The row ids of persons by their uuids. */
  async personIds(tx: Executor, projectId: number, uuids: readonly string[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const part of chunks(uuids)) {
      const rows = await tx.selectFrom('persons').select(['id', 'uuid']).where('project_id', '=', projectId).where('uuid', 'in', part).execute();
      for (const row of rows) ids.set(row.uuid, Number(row.id));
    }
    return ids;
  },

  async insertEvents(tx: Executor, rows: readonly Insertable<SurveyEventTable>[]): Promise<void> {
    for (const part of chunks(rows)) await tx.insertInto('survey_events').values(part).execute();
  },

  /** The stored responses of these submissions (and perhaps a few more of the same surveys). */
  async responses(tx: Executor, projectId: number, surveyIds: readonly string[], submissionIds: readonly string[]): Promise<ResponseRow[]> {
    const found: ResponseRow[] = [];
    for (const part of chunks(submissionIds)) {
      found.push(
        ...(await tx
          .selectFrom('survey_responses')
          .selectAll()
          .where('project_id', '=', projectId)
          .where('survey_id', 'in', surveyIds)
          .where('submission_id', 'in', part)
          .execute()),
      );
    }
    return found;
  },

  async insertResponses(tx: Executor, rows: readonly Insertable<SurveyResponseTable>[]): Promise<void> {
    for (const part of chunks(rows)) await tx.insertInto('survey_responses').values(part).execute();
  },

  async updateResponse(tx: Executor, row: ResponseRow): Promise<void> {
    const { id, project_id: _project, survey_id: _survey, submission_id: _submission, ...changes } = row;
    await tx.updateTable('survey_responses').set(changes).where('id', '=', id).execute();
  },

  /** Completed responses that count toward the survey's limit: those stored while it ran. */
  async countedResponses(tx: Executor, projectId: number, surveyId: string): Promise<number> {
    const { count } = await tx
      .selectFrom('survey_responses')
      .select(sql<number | string>`count(*)`.as('count'))
      .where('project_id', '=', projectId)
      .where('survey_id', '=', surveyId)
      .where('completed', '=', 1)
      .where('late', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(count);
  },

  /** Ends a running survey at `at` (one that ended already keeps its end). */
  async stop(tx: Executor, projectId: number, surveyId: string, at: string): Promise<void> {
    await tx
      .updateTable('surveys')
      .set({ end_date: at, updated_at: at })
      .where('project_id', '=', projectId)
      .where('id', '=', surveyId)
      .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>', at)]))
      .execute();
  },
};
