import type { UsageSeries } from './types';

/** The UTC days a relative range (`-7d`, `-24h`) spans, oldest first, ending today: the charts' x axis. */
export function daysOf(dateFrom: string, now = Date.now()): string[] {
  const m = /^-(\d+)([dh])$/.exec(dateFrom);
  const span = m ? Number(m[1]) * (m[2] === 'd' ? 86_400_000 : 3_600_000) : 30 * 86_400_000;
  const first = Date.parse(`${new Date(now - span).toISOString().slice(0, 10)}T00:00:00Z`);
  const days: string[] = [];
  for (let t = first; t <= now; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

export type DailyFigure = 'cost_usd' | 'tokens' | 'latency_p50' | 'latency_p95' | 'calls';

/** One series' figure on each day; null on a day without calls (a gap, not a zero, for latency; zero for the rest). */
export function dailyValues(series: UsageSeries, days: string[], figure: DailyFigure): (number | null)[] {
  const byDay = new Map(series.buckets.map((b) => [b.date.slice(0, 10), b]));
  return days.map((day) => {
    const b = byDay.get(day);
    if (figure === 'latency_p50' || figure === 'latency_p95') return b ? b[figure] : null;
    if (!b) return 0;
    return figure === 'tokens' ? b.input_tokens + b.output_tokens : b[figure];
  });
}

/** All models added up: calls, tokens, cost and the error rate (percentiles do not add up, so they stay per model). */
export function totalsOf(series: UsageSeries[]) {
  const calls = series.reduce((a, s) => a + s.calls, 0);
  const errors = series.reduce((a, s) => a + s.error_rate * s.calls, 0);
  return {
    calls,
    cost_usd: series.reduce((a, s) => a + s.cost_usd, 0),
    input_tokens: series.reduce((a, s) => a + s.input_tokens, 0),
    output_tokens: series.reduce((a, s) => a + s.output_tokens, 0),
    error_rate: calls ? errors / calls : 0,
  };
}

/** The series most called first, the key shown as the model's name (a generation without one as "(no model)"). */
export const bySize = (series: UsageSeries[]) => [...series].sort((a, b) => b.calls - a.calls);
export const modelName = (key: string | null) => key ?? '(no model)';
