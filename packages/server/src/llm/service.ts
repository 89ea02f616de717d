import { changesBetween, recordActivity } from '../activity/service';
import type { Db } from '../db/database';
import { PAGE_MAX_BYTES } from '../db/page';
import { payloadsOf, wholeProperties } from '../events/store';
import { ValidationError, NotFoundError } from '../errors';
import type { Actor } from '../http/actor';
import { timeOf } from '../http/query-time';
import type { LlmPrice } from './prices';
import { llmStore, type LlmFilters, type LlmRow } from './store';

/** The query of the generations list and of usage, as sent. */
export interface LlmQuery {
  model?: string | undefined;
  provider?: string | undefined;
  trace_id?: string | undefined;
  person_id?: string | undefined;
  distinct_id?: string | undefined;
  is_error?: string | undefined;
  flag?: string | undefined;
  variant?: string | undefined;
  cost_min?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
}

export interface Generation {
  id: string;
  kind: string;
  model: string | null;
  provider: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_creation_tokens: number | null;
  reasoning_tokens: number | null;
  input_cost_usd: number | null;
  output_cost_usd: number | null;
  cost_usd: number | null;
  latency: number | null;
  time_to_first_token: number | null;
  http_status: number | null;
  trace_id: string;
  span_id: string | null;
  parent_id: string | null;
  name: string | null;
  is_error: boolean;
  error: string | null;
  distinct_id: string;
  person_id: string | null;
  session_id: string | null;
  flags: Record<string, string | boolean>;
  timestamp: string;
}

export interface TraceNode extends Generation {
  /** The event's properties as captured (its inputs and outputs), null past the trace's budget (`TRACE_MAX_BYTES`). */
  properties: Record<string, unknown> | null;
  children: TraceNode[];
}

/**
 * Bytes of stored properties a trace's answer holds at most: the events after the one that reaches it (in time order)
 * come without their properties, so that an agent's thousand large calls stay an answer JSON can hold.
 */
export const TRACE_MAX_BYTES = 4 * PAGE_MAX_BYTES;

const blank = (value: string | undefined) => value === undefined || value.trim() === '';
const n = (value: number | string | null) => (value === null ? null : Number(value));

export function generationOf(row: LlmRow): Generation {
  return {
    id: row.uuid,
    kind: row.kind,
    model: row.model,
    provider: row.provider,
    input_tokens: n(row.input_tokens),
    output_tokens: n(row.output_tokens),
    cache_read_tokens: n(row.cache_read_tokens),
    cache_creation_tokens: n(row.cache_creation_tokens),
    reasoning_tokens: n(row.reasoning_tokens),
    input_cost_usd: n(row.input_cost_usd),
    output_cost_usd: n(row.output_cost_usd),
    cost_usd: n(row.total_cost_usd),
    latency: n(row.latency),
    time_to_first_token: n(row.time_to_first_token),
    http_status: n(row.http_status),
    trace_id: row.trace_id,
    span_id: row.span_id,
    parent_id: row.parent_id,
    name: row.name,
    is_error: Number(row.is_error) === 1,
    error: row.error,
    distinct_id: row.distinct_id,
    person_id: row.person_uuid,
    session_id: row.session_id,
    flags: row.flags ? (JSON.parse(row.flags) as Record<string, string | boolean>) : {},
    timestamp: row.timestamp,
  };
}

/**
 * A trace's events as a tree: each under the event whose span id its parent id names (a generation's parent is the
 * span or trace that made it); an event whose parent is not there (or is the trace id without a `$ai_trace` event)
 * is a root. A cycle in the ids sent cannot hide events: what a cycle holds becomes roots.
 */
export function treeOf(rows: readonly LlmRow[], properties: ReadonlyMap<string, Record<string, unknown>> = new Map()): TraceNode[] {
  const nodes = rows.map((row) => ({ ...generationOf(row), properties: properties.get(row.uuid) ?? null, children: [] as TraceNode[] }));
  const bySpan = new Map<string, TraceNode>();
  for (const node of nodes) if (node.span_id !== null && !bySpan.has(node.span_id)) bySpan.set(node.span_id, node);
  const roots: TraceNode[] = [];
  for (const node of nodes) {
    const parent = node.parent_id === null ? undefined : bySpan.get(node.parent_id);
    if (parent && parent !== node && !isBelow(parent, node, bySpan)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Whether `candidate` already sits below `node` through the parents chosen so far (attaching would make a cycle). */
function isBelow(candidate: TraceNode, node: TraceNode, bySpan: Map<string, TraceNode>): boolean {
  const seen = new Set<TraceNode>();
  for (let at: TraceNode | undefined = candidate; at && !seen.has(at); at = at.parent_id === null ? undefined : bySpan.get(at.parent_id)) {
    if (at === node) return true;
    seen.add(at);
  }
  return false;
}

const GENERATION_KINDS = ['generation', 'embedding'];

/** The activity log's scope for a project's price overrides. */
export const PRICES_ACTIVITY = 'LlmPrices';

/** The LLM API's rules: filters checked (400 naming the parameter), generations, traces, usage and price overrides. */
export class LlmService {
  constructor(private readonly db: Db) {}

  /** The checked filters; null when nothing can match (an unknown person). */
  async filtersOf(projectId: number, query: LlmQuery, now = Date.now()): Promise<LlmFilters | null> {
    const from = timeOf(query.date_from, 'date_from', now);
    const to = timeOf(query.date_to, 'date_to', now);
    if (from !== undefined && to !== undefined && from >= to) throw new ValidationError('`date_from` must be earlier than `date_to`.', 'date_from', 'invalid');
    let isError: boolean | undefined;
    if (!blank(query.is_error)) {
      if (query.is_error !== 'true' && query.is_error !== 'false') throw new ValidationError('Enter true or false.', 'is_error', 'invalid');
      isError = query.is_error === 'true';
    }
    let costMin: number | undefined;
    if (!blank(query.cost_min)) {
      costMin = /^\d{1,12}(\.\d{1,12})?$/.test(query.cost_min!.trim()) ? Number(query.cost_min) : NaN;
      if (!Number.isFinite(costMin)) throw new ValidationError('Enter a cost in USD (0 or more).', 'cost_min', 'invalid');
    }
    if (blank(query.flag) && !blank(query.variant)) throw new ValidationError('Give `flag` with `variant`.', 'flag', 'required');
    if (!blank(query.flag) && query.flag!.includes('\u0000')) throw new ValidationError('A flag key holds no NUL.', 'flag', 'invalid');
    let distinctIds: string[] | undefined;
    if (!blank(query.person_id)) {
      distinctIds = await llmStore.distinctIdsOfPerson(this.db.kysely, projectId, query.person_id!.trim());
      if (!distinctIds.length) return null;
    }
    if (!blank(query.distinct_id)) distinctIds = distinctIds ? distinctIds.filter((d) => d === query.distinct_id) : [query.distinct_id!];
    return {
      kinds: GENERATION_KINDS,
      model: blank(query.model) ? undefined : query.model,
      provider: blank(query.provider) ? undefined : query.provider,
      traceId: blank(query.trace_id) ? undefined : query.trace_id,
      distinctIds,
      isError,
      costMin,
      flag: blank(query.flag) ? undefined : { key: query.flag!, variant: blank(query.variant) ? undefined : query.variant },
      from,
      to,
    };
  }

  /** Generations and embeddings, newest first. */
  async generations(projectId: number, query: LlmQuery, limit: number, offset: number): Promise<{ count: number; results: Generation[] }> {
    const filters = await this.filtersOf(projectId, query);
    if (!filters) return { count: 0, results: [] };
    const { kysely, dialect } = this.db;
    const [count, rows] = await Promise.all([
      llmStore.count(kysely, dialect, projectId, filters),
      llmStore.page(kysely, dialect, projectId, filters, limit, offset),
    ]);
    return { count, results: rows.map(generationOf) };
  }

  /** A trace as a tree of its spans and generations, with their properties whole; 404 when nothing of it is stored. */
  async trace(projectId: number, traceId: string) {
    const { kysely } = this.db;
    const rows = await llmStore.trace(kysely, projectId, traceId);
    if (!rows.length) throw new NotFoundError('No such trace.');
    const stored = await llmStore.properties(
      kysely,
      projectId,
      rows.map((r) => r.uuid),
      TRACE_MAX_BYTES,
    );
    const payloads = await payloadsOf(kysely, projectId, stored);
    const properties = new Map(stored.map((e) => [e.uuid, wholeProperties(e.properties, null, e.llm_payloads, payloads)]));
    const generations = rows.filter((r) => GENERATION_KINDS.includes(r.kind));
    const costs = generations.map((r) => r.total_cost_usd).filter((c): c is number => c !== null);
    return {
      trace_id: traceId,
      start_time: rows[0]!.timestamp,
      generation_count: generations.length,
      cost_usd: costs.length ? costs.reduce((a, b) => a + Number(b), 0) : null,
      is_error: rows.some((r) => Number(r.is_error) === 1),
      children: treeOf(rows, properties),
    };
  }

  /** The project's price overrides. */
  async prices(projectId: number): Promise<LlmPrice[]> {
    const raw = await llmStore.prices(this.db.kysely, projectId);
    return raw ? (JSON.parse(raw) as LlmPrice[]) : [];
  }

  /** Replaces the project's price overrides (an activity log entry when they changed); generations stored from now on follow. */
  async setPrices(projectId: number, prices: LlmPrice[], actor: Actor): Promise<LlmPrice[]> {
    const seen = new Set<string>();
    prices.forEach((price, i) => {
      const key = `${price.provider.toLowerCase()}\n${price.model.toLowerCase()}`;
      if (seen.has(key)) throw new ValidationError(`${price.provider} ${price.model} is listed twice.`, `prices__${i}__model`, 'unique');
      seen.add(key);
    });
    await this.db.kysely.transaction().execute(async (trx) => {
      const raw = await llmStore.prices(trx, projectId);
      const before = { prices: raw ? (JSON.parse(raw) as unknown) : [] };
      const changes = changesBetween(before, { prices }, ['prices']);
      if (!changes.length) return;
      await llmStore.setPrices(trx, projectId, JSON.stringify(prices), new Date().toISOString());
      await recordActivity(trx, actor, { projectId, scope: PRICES_ACTIVITY, itemId: projectId, activity: 'updated', name: 'LLM prices', changes });
    });
    return prices;
  }
}
