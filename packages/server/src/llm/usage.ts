import { Type, type Static } from 'typebox';
import type { Db } from '../db/database';
import { ValidationError } from '../errors';
import { FilterQuery } from './filter-query';
import type { LlmService } from './service';
import { llmStore } from './store';

export const UsageQuerySchema = Type.Object({
  ...FilterQuery,
  interval: Type.Optional(Type.String({ description: '`day` (the default) or `hour`' })),
  by: Type.Optional(Type.String({ description: '`model` (the default), `provider`, or `flag` (with `flag=<key>`: one series per variant)' })),
});
type UsageQuery = Static<typeof UsageQuerySchema>;

const figures = {
  calls: Type.Integer(),
  input_tokens: Type.Number(),
  output_tokens: Type.Number(),
  cost_usd: Type.Number({ description: 'the generations with a known cost, added up' }),
  latency_p50: Type.Union([Type.Number(), Type.Null()], { description: 'seconds' }),
  latency_p95: Type.Union([Type.Number(), Type.Null()], { description: 'seconds' }),
  error_rate: Type.Number({ description: 'errors / calls' }),
};
const Bucket = Type.Object({ date: Type.String({ description: 'the interval’s start, ISO' }), ...figures });
export const UsageSchema = Type.Object(
  {
    interval: Type.String(),
    by: Type.String(),
    truncated: Type.Boolean({ description: 'true when more generations matched than usage reads (narrow the dates)' }),
    series: Type.Array(
      Type.Object({
        key: Type.Union([Type.String(), Type.Null()], { description: 'the model, provider or variant' }),
        ...figures,
        buckets: Type.Array(Bucket),
      }),
    ),
  },
  { title: 'LlmUsage' },
);
type Figures = { [K in keyof typeof figures]: number | null };

/** Generations read for one usage answer at most. */
const MAX_ROWS = 200_000;

/** The `q`-quantile of sorted values, by nearest rank. */
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : null);

class Acc {
  calls = 0;
  errors = 0;
  input = 0;
  output = 0;
  cost = 0;
  latencies: number[] = [];
  add(r: { input_tokens: unknown; output_tokens: unknown; total_cost_usd: unknown; latency: unknown; is_error: unknown }) {
    this.calls++;
    if (Number(r.is_error) === 1) this.errors++;
    if (r.input_tokens !== null) this.input += Number(r.input_tokens);
    if (r.output_tokens !== null) this.output += Number(r.output_tokens);
    if (r.total_cost_usd !== null) this.cost += Number(r.total_cost_usd);
    if (r.latency !== null) this.latencies.push(Number(r.latency));
  }
  figures(): Figures {
    const sorted = this.latencies.sort((a, b) => a - b);
    return {
      calls: this.calls,
      input_tokens: this.input,
      output_tokens: this.output,
      cost_usd: this.cost,
      latency_p50: quantile(sorted, 0.5),
      latency_p95: quantile(sorted, 0.95),
      error_rate: this.calls ? this.errors / this.calls : 0,
    };
  }
}

/** Usage: generations' calls, tokens, cost, latency percentiles and error rate per interval, in one series per key. */
export class UsageService {
  constructor(
    private readonly db: Db,
    private readonly llm: LlmService,
  ) {}

  async usage(projectId: number, query: UsageQuery) {
    const interval = query.interval ?? 'day';
    if (interval !== 'day' && interval !== 'hour') throw new ValidationError('Use `day` or `hour`.', 'interval', 'invalid_choice');
    const by = query.by ?? 'model';
    if (by !== 'model' && by !== 'provider' && by !== 'flag') throw new ValidationError('Use `model`, `provider` or `flag`.', 'by', 'invalid_choice');
    if (by === 'flag' && !query.flag?.trim())
      throw new ValidationError('Give the flag (`flag=<key>`) to break usage down by its variants.', 'flag', 'required');
    const filters = await this.llm.filtersOf(projectId, query);
    if (!filters) return { interval, by, truncated: false, series: [] };
    const rows = await llmStore.usageRows(this.db.kysely, this.db.dialect, projectId, filters, MAX_ROWS + 1);
    const truncated = rows.length > MAX_ROWS;
    const cut = interval === 'day' ? 10 : 13;
    const series = new Map<string | null, { all: Acc; buckets: Map<string, Acc> }>();
    for (const row of truncated ? rows.slice(0, MAX_ROWS) : rows) {
      let key: string | null;
      if (by === 'flag') {
        const variant = row.flags ? (JSON.parse(row.flags) as Record<string, unknown>)[query.flag!] : undefined;
        key = variant === undefined ? null : String(variant);
      } else key = by === 'model' ? row.model : row.provider;
      let s = series.get(key);
      if (!s) series.set(key, (s = { all: new Acc(), buckets: new Map() }));
      s.all.add(row);
      const date = interval === 'day' ? `${row.timestamp.slice(0, cut)}T00:00:00.000Z` : `${row.timestamp.slice(0, cut)}:00:00.000Z`;
      let b = s.buckets.get(date);
      if (!b) s.buckets.set(date, (b = new Acc()));
      b.add(row);
    }
    return {
      interval,
      by,
      truncated,
      series: [...series.entries()].map(([key, s]) => ({
        key,
        ...s.all.figures(),
        buckets: [...s.buckets.entries()].map(([date, b]) => ({ date, ...b.figures() })),
      })),
    };
  }
}
