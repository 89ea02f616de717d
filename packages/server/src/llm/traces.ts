import { sql } from 'kysely';
import { Type, type Static } from 'typebox';
import type { Db } from '../db/database';
import { ValidationError } from '../errors';
import { PageQuery } from '../http/schemas';
import { FilterQuery } from './filter-query';
import type { LlmService } from './service';
import { filtered, type LlmFilters } from './store';

export const TracesQuery = Type.Object({
  person_id: FilterQuery.person_id,
  distinct_id: FilterQuery.distinct_id,
  model: Type.Optional(Type.String({ description: 'traces with a generation of this model' })),
  is_error: Type.Optional(Type.String({ description: '`true`: traces with an error; `false`: traces without' })),
  date_from: Type.Optional(Type.String({ description: 'traces with an event from then: `YYYY-MM-DD`, an ISO date-time or `-7d`' })),
  date_to: FilterQuery.date_to,
  ...PageQuery.properties,
});
type TracesQueryValue = Static<typeof TracesQuery>;

const num = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const nstr = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
export const TraceSummarySchema = Type.Object(
  {
    id: Type.String({ description: 'the trace id (`$ai_trace_id`)' }),
    name: nstr('the `$ai_trace` event’s name, else the first span name; null when none was sent'),
    distinct_id: Type.String(),
    person_id: nstr("the person's uuid when the events were stored"),
    session_id: nstr('`$session_id` of its events: their recording'),
    started_at: Type.String({ description: 'its first event’s time' }),
    latency: num('seconds: the `$ai_trace` event’s latency when sent, else the longest of its events'),
    generations: Type.Integer({ description: 'generations and embeddings in it' }),
    cost_usd: num('its generations’ cost added up; null when none has one'),
    input_tokens: num('its generations’ input tokens added up; null when none reported usage'),
    output_tokens: num('its generations’ output tokens added up; null when none reported usage'),
    is_error: Type.Boolean({ description: 'any of its events failed' }),
  },
  { title: 'LlmTraceSummary' },
);
export type TraceSummary = Static<typeof TraceSummarySchema>;

const ALL_KINDS = ['generation', 'embedding', 'span', 'trace'];
const n = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** The traces list: a trace is every LLM event sharing a `$ai_trace_id`, added up; newest first. */
export class TracesService {
  constructor(
    private readonly db: Db,
    private readonly llm: LlmService,
  ) {}

  async list(projectId: number, query: TracesQueryValue, limit: number, offset: number): Promise<{ count: number; results: TraceSummary[] }> {
    let isError: boolean | undefined;
    if (query.is_error !== undefined && query.is_error.trim() !== '') {
      if (query.is_error !== 'true' && query.is_error !== 'false') throw new ValidationError('Enter true or false.', 'is_error', 'invalid');
      isError = query.is_error === 'true';
    }
    const checked = await this.llm.filtersOf(projectId, { ...query, is_error: undefined });
    if (!checked) return { count: 0, results: [] };
    // A model names generations; the other filters keep a trace when any of its events matches them.
    const matching: LlmFilters = { ...checked, kinds: checked.model === undefined ? ALL_KINDS : ['generation', 'embedding'] };
    const { kysely, dialect } = this.db;
    // Without a filter every trace matches: the list reads the project's events once, not twice.
    const narrowed = Object.entries(matching).some(([key, value]) => key !== 'kinds' && value !== undefined);
    let events = kysely.selectFrom('llm_events').where('project_id', '=', projectId);
    if (narrowed) events = events.where('trace_id', 'in', filtered(kysely, dialect, projectId, matching).select('trace_id'));
    const generation = sql`kind in ('generation', 'embedding')`;
    let grouped = events.groupBy('trace_id');
    if (isError !== undefined) grouped = grouped.having(sql`max(is_error)`, '=', isError ? 1 : 0);
    const counting =
      isError === undefined
        ? events.select(sql<number | string>`count(distinct trace_id)`.as('n'))
        : kysely.selectFrom(grouped.select('trace_id').as('t')).select((eb) => eb.fn.countAll<number | string>().as('n'));
    const [counted, rows] = await Promise.all([
      counting.executeTakeFirstOrThrow(),
      grouped
        .select([
          'trace_id',
          sql<string | null>`coalesce(max(case when kind = 'trace' then name end), min(name))`.as('name'),
          sql<string>`min(distinct_id)`.as('distinct_id'),
          sql<string | null>`max(person_uuid)`.as('person_id'),
          sql<string | null>`max(session_id)`.as('session_id'),
          sql<string>`min(timestamp)`.as('started_at'),
          sql<number | null>`coalesce(max(case when kind = 'trace' then latency end), max(latency))`.as('latency'),
          sql<number | string>`sum(case when ${generation} then 1 else 0 end)`.as('generations'),
          sql<number | string | null>`sum(case when ${generation} then total_cost_usd end)`.as('cost_usd'),
          sql<number | string | null>`sum(case when ${generation} then input_tokens end)`.as('input_tokens'),
          sql<number | string | null>`sum(case when ${generation} then output_tokens end)`.as('output_tokens'),
          sql<number | string>`max(is_error)`.as('is_error'),
        ])
        .orderBy(sql`min(timestamp)`, 'desc')
        .orderBy('trace_id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
    ]);
    return {
      count: Number(counted.n),
      results: rows.map((r) => ({
        id: r.trace_id,
        name: r.name,
        distinct_id: r.distinct_id,
        person_id: r.person_id,
        session_id: r.session_id,
        started_at: r.started_at,
        latency: n(r.latency),
        generations: Number(r.generations),
        cost_usd: n(r.cost_usd),
        input_tokens: n(r.input_tokens),
        output_tokens: n(r.output_tokens),
        is_error: Number(r.is_error) === 1,
      })),
    };
  }
}
