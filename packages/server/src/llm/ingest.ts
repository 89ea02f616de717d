import type { CapturedEvent, EventDraft, IngestSlice, IngestStep, Marked } from '../capture/pipeline';
import type { Db } from '../db/database';
import { storable } from '../db/text';
import { isObject, type Properties } from '../json';
import { storedLlmProperties } from './payloads';
import { DEFAULT_PRICES, PriceTable, costOf, type Cost, type LlmPrice } from './prices';

/** The events this module reads, and the kind each is stored as. */
const KINDS: Readonly<Record<string, string>> = {
  $ai_generation: 'generation',
  $ai_embedding: 'embedding',
  $ai_span: 'span',
  $ai_trace: 'trace',
};

/** What the step takes of an LLM event at the door: its fields, checked and cut to what a column holds. */
export interface LlmMark {
  kind: string;
  traceId: string | undefined;
  spanId: string | undefined;
  parentId: string | undefined;
  name: string | undefined;
  model: string | undefined;
  provider: string | undefined;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  cacheReadTokens: number | undefined;
  cacheCreationTokens: number | undefined;
  reasoningTokens: number | undefined;
  /** The costs the client computed; they win over the price table. */
  sentCost: Partial<Cost> | undefined;
  latency: number | undefined;
  timeToFirstToken: number | undefined;
  httpStatus: number | undefined;
  isError: boolean;
  error: string | undefined;
  sessionId: string | undefined;
  flags: string | undefined;
  /** Its cost, set before the ingest transaction (`priceEvents`): the client's, else the price table's; undefined when unknown. */
  cost?: Partial<Cost> | undefined;
}

const FLAG_PREFIX = '$feature/';
/** An error is kept whole up to this many characters (the event row keeps it whole). */
const ERROR_MAX_CHARS = 8192;

const text = (value: unknown, max = 200): string | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? storable(value, max) : undefined;
};
const amount = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};
const count = (value: unknown): number | undefined => {
  const n = amount(value);
  return n === undefined || n > Number.MAX_SAFE_INTEGER ? undefined : Math.round(n);
};

function errorText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return storable(value, ERROR_MAX_CHARS);
  return storable(JSON.stringify(value) ?? String(value), ERROR_MAX_CHARS);
}

/** The event's `$feature/<flag>` properties as JSON (flag → variant, `true`/`false` as sent), undefined without any. */
function flagsOf(properties: Properties): string | undefined {
  let flags: Record<string, unknown> | undefined;
  for (const key in properties) {
    if (!key.startsWith(FLAG_PREFIX) || key.length === FLAG_PREFIX.length) continue;
    const value = properties[key];
    if (typeof value === 'string' || typeof value === 'boolean')
      (flags ??= {})[storable(key.slice(FLAG_PREFIX.length))] = typeof value === 'string' ? storable(value) : value;
  }
  return flags && JSON.stringify(flags);
}

/** The fields of an LLM event; undefined for any other event. */
export function markLlmEvent(draft: Pick<EventDraft, 'event' | 'properties'>): LlmMark | undefined {
  const kind = KINDS[draft.event];
  if (!kind) return undefined;
  const p = draft.properties;
  const sent = { input: amount(p.$ai_input_cost_usd), output: amount(p.$ai_output_cost_usd), total: amount(p.$ai_total_cost_usd) };
  const isError = p.$ai_is_error === true || p.$ai_is_error === 'true' || (typeof p.$ai_http_status === 'number' && p.$ai_http_status >= 400);
  const session = p.$session_id;
  return {
    kind,
    traceId: text(p.$ai_trace_id),
    spanId: text(p.$ai_span_id) ?? (kind === 'trace' ? text(p.$ai_trace_id) : undefined),
    parentId: text(p.$ai_parent_id),
    name: text(p.$ai_span_name, 500),
    model: text(p.$ai_model),
    provider: text(p.$ai_provider),
    inputTokens: count(p.$ai_input_tokens),
    outputTokens: count(p.$ai_output_tokens),
    cacheReadTokens: count(p.$ai_cache_read_input_tokens),
    cacheCreationTokens: count(p.$ai_cache_creation_input_tokens),
    reasoningTokens: count(p.$ai_reasoning_tokens),
    sentCost: sent.input !== undefined || sent.output !== undefined || sent.total !== undefined ? sent : undefined,
    latency: amount(p.$ai_latency),
    timeToFirstToken: amount(p.$ai_time_to_first_token),
    httpStatus: count(p.$ai_http_status),
    isError,
    error: errorText(p.$ai_error),
    sessionId: typeof session === 'string' && session !== '' ? storable(session) : undefined,
    flags: isObject(p) ? flagsOf(p) : undefined,
  };
}

const DEFAULT_TABLE = new PriceTable(DEFAULT_PRICES);

/**
 * A reader of a project's price table (the defaults, then its overrides), prepared: on SQLite it runs on the read-only
 * connection, never queued behind the ingest transaction.
 */
function priceTables(db: Pick<Db, 'kysely' | 'preparedRead'>): (projectId: number) => Promise<PriceTable> {
  const read = db.preparedRead(db.kysely.selectFrom('llm_prices').select('prices').where('project_id', '=', 0));
  return async (projectId) => {
    const [row] = await read(projectId);
    return row ? new PriceTable(DEFAULT_PRICES, JSON.parse(row.prices) as LlmPrice[]) : DEFAULT_TABLE;
  };
}

/** The cost of a marked event: the client's when it sent one, else the price table's; undefined for an unknown model. */
export function costOfMark(mark: LlmMark, prices: PriceTable): Partial<Cost> | undefined {
  if (mark.sentCost) {
    const { input, output, total } = mark.sentCost;
    return { input, output, total: total ?? (input !== undefined || output !== undefined ? (input ?? 0) + (output ?? 0) : undefined) };
  }
  if (!mark.model || (mark.kind !== 'generation' && mark.kind !== 'embedding')) return undefined;
  const price = prices.find(mark.provider, mark.model);
  return (
    price &&
    costOf(price, mark.provider, {
      input: mark.inputTokens,
      output: mark.outputTokens,
      cacheRead: mark.cacheReadTokens,
      cacheCreation: mark.cacheCreationTokens,
    })
  );
}

/** The properties the cost is written to, in the event's row too, when the service computed it. */
const COST_PROPERTIES = { input: '$ai_input_cost_usd', output: '$ai_output_cost_usd', total: '$ai_total_cost_usd' } as const;

/**
 * Writes a computed cost into the event's properties as stored, so that the events API and exports show it as if the
 * client had sent it: after the last key of their JSON, as adding the keys to the object would order them (a client
 * that sent them as something else than amounts has them replaced in place).
 */
function writeCost(event: CapturedEvent, cost: Cost): void {
  const values = { [COST_PROPERTIES.input]: cost.input, [COST_PROPERTIES.output]: cost.output, [COST_PROPERTIES.total]: cost.total };
  const sentOther = Object.values(COST_PROPERTIES).some((key) => Object.hasOwn(event.properties, key));
  Object.assign(event.properties, values);
  if (sentOther) {
    event.propertiesJson = JSON.stringify(Object.assign(JSON.parse(event.propertiesJson) as Properties, values));
    return;
  }
  const added = Object.entries(values)
    .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join(',');
  const json = event.propertiesJson;
  event.propertiesJson = `${json.slice(0, -1)}${json === '{}' ? '' : ','}${added}}`;
}

/** Whether the price table decides an event's cost: the client sent none and it names a model of a generation. */
const needsPrice = (mark: LlmMark) => !mark.sentCost && mark.model !== undefined && (mark.kind === 'generation' || mark.kind === 'embedding');

/**
 * Before the ingest transaction: each event's cost (`LlmMark.cost`), the project's price table read once when some
 * event needs it; a computed cost is written into the event's stored properties (`writeCost`).
 */
function priceEvents(pricesOf: (projectId: number) => Promise<PriceTable>, projectId: number, marked: readonly Marked<LlmMark>[]): Promise<void> | undefined {
  const price = (prices: PriceTable) => {
    for (const { event, mark } of marked) {
      mark.cost = costOfMark(mark, prices);
      if (needsPrice(mark) && mark.cost) writeCost(event, mark.cost as Cost);
    }
  };
  // No event to price from the table (the clients sent their costs): nothing to wait for.
  if (!marked.some(({ mark }) => needsPrice(mark))) return void price(DEFAULT_TABLE);
  return pricesOf(projectId).then(price);
}

/** Rows per insert: 27 columns each stay well inside SQLite's and PostgreSQL's bound parameters. */
const ROWS_PER_INSERT = 200;

async function recordLlmEvents(slice: IngestSlice, marked: readonly Marked<LlmMark>[]): Promise<void> {
  const createdAt = new Date().toISOString();
  const rows = marked.map(({ event, mark }) => {
    const cost = mark.cost;
    return {
      project_id: slice.projectId,
      uuid: event.uuid,
      kind: mark.kind,
      // An event without a trace is a trace of its own.
      trace_id: mark.traceId ?? event.uuid,
      span_id: mark.spanId ?? null,
      parent_id: mark.parentId ?? null,
      name: mark.name ?? null,
      model: mark.model ?? null,
      provider: mark.provider ?? null,
      input_tokens: mark.inputTokens ?? null,
      output_tokens: mark.outputTokens ?? null,
      cache_read_tokens: mark.cacheReadTokens ?? null,
      cache_creation_tokens: mark.cacheCreationTokens ?? null,
      reasoning_tokens: mark.reasoningTokens ?? null,
      input_cost_usd: cost?.input ?? null,
      output_cost_usd: cost?.output ?? null,
      total_cost_usd: cost?.total ?? null,
      latency: mark.latency ?? null,
      time_to_first_token: mark.timeToFirstToken ?? null,
      http_status: mark.httpStatus ?? null,
      is_error: mark.isError ? 1 : 0,
      error: mark.error ?? null,
      distinct_id: event.distinctId,
      person_uuid: slice.personUuid(event.distinctId) ?? null,
      session_id: mark.sessionId ?? null,
      flags: mark.flags ?? null,
      timestamp: event.timestamp,
      created_at: createdAt,
    };
  });
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await slice.tx
      .insertInto('llm_events')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflict((c) => c.columns(['project_id', 'uuid']).doNothing())
      .execute();
  }
}

/**
 * The ingestion step of LLM observability: at the door it reads an `$ai_generation`, `$ai_embedding`, `$ai_span` or
 * `$ai_trace` event's fields and keeps its large inputs and outputs apart (`payloads.ts`); before the transaction it
 * prices it from the project's price table when the client sent no cost, and writes that cost into its properties; in
 * the ingest transaction it writes their rows, so an acknowledged generation is in the API at once.
 */
export function llmEventsStep(db: Pick<Db, 'kysely' | 'preparedRead'>): IngestStep<LlmMark> {
  const pricesOf = priceTables(db);
  return {
    mark: markLlmEvent,
    serialize: storedLlmProperties,
    prepare: (projectId, marked) => priceEvents(pricesOf, projectId, marked),
    record: recordLlmEvents,
  };
}
