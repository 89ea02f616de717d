import { useComputedColorScheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { DAY_STEPS, dayLabel, dayRange } from './time-range';

export interface ChartSeries {
  label: string;
  /** One a day; null: no value that day (a gap in the line). */
  values: (number | null)[];
}

const COLORS = ['#4c6ef5', '#12b886', '#fd7e14', '#e64980', '#7950f2', '#15aabf', '#fab005', '#868e96'];

const sum = (values: (number | null)[]) => values.reduce<number>((a, b) => a + (b ?? 0), 0);
const count = (v: number) => (Number.isInteger(v) ? v.toLocaleString() : '');

/**
 * Daily figures as lines (uPlot, loaded only with the pages that chart something): counts by default; `format` writes
 * the axis and legend values of other figures (dollars, seconds), and `summary` the legend's figure for all the days
 * (their sum by default; a latency's is not). Both are kept
 * between renders (module functions), or the chart would be drawn anew each time.
 */
export default function TimeChart({
  days,
  series,
  height = 240,
  label,
  format = count,
  summary,
}: {
  days: string[];
  series: ChartSeries[];
  height?: number;
  label: string;
  format?: (value: number) => string;
  summary?: (values: (number | null)[]) => string;
}) {
  const { ref, width } = useElementSize();
  const target = useRef<HTMLDivElement>(null);
  const dark = useComputedColorScheme('light') === 'dark';

  useEffect(() => {
    if (!target.current || width === 0) return;
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const axis = { stroke: dark ? '#c1c2c5' : '#495057', grid: { stroke: dark ? '#373a40' : '#e9ecef', width: 1 }, ticks: { show: false } };
    const plot = new uPlot(
      {
        width,
        height,
        // The days are UTC calendar days: the axis labels them in UTC, or west of Greenwich each would show the day before.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true, range: () => dayRange(xs[0] ?? null, xs.at(-1) ?? null) }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { ...axis, incrs: DAY_STEPS, values: (u, ticks) => ticks.map((t) => dayLabel(t, [u.scales.x!.min!, u.scales.x!.max!])) },
          { ...axis, ...(format === count ? {} : { size: 70 }), values: (_u, ticks) => ticks.map((t) => format(t)) },
        ],
        legend: { show: true },
        // The days the axis spans, on the element (uPlot draws its axes on a canvas): what the browser tests read.
        hooks: {
          setScale: [
            (u, key) => {
              const { min, max } = u.scales.x!;
              if (key === 'x' && min != null && max != null)
                u.root.dataset.days = [min, max].map((t) => new Date(t * 1000).toISOString().slice(0, 10)).join('/');
            },
          ],
        },
        cursor: { drag: { x: false, y: false } },
        series: [
          // The legend shows each series' total until the pointer is on a day, then that day's counts.
          {
            label: 'Day',
            value: (_u, v) => (v == null ? `all ${days.length} days` : new Date(v * 1000).toLocaleDateString(undefined, { timeZone: 'UTC' })),
          },
          ...series.map((s, i) => ({
            label: s.label,
            stroke: COLORS[i % COLORS.length],
            width: 2,
            points: { show: days.length < 40 },
            value: (_u: uPlot, v: number | null, _s: number, idx: number | null) =>
              idx == null ? (summary ? summary(s.values) : format(sum(s.values))) : v == null ? '—' : format(v),
          })),
        ],
      },
      [xs, ...series.map((s) => s.values)],
      target.current,
    );
    return () => plot.destroy();
  }, [days, series, width, height, dark, format, summary]);

  return (
    <div ref={ref} role="img" aria-label={label} className={dark ? 'chart chart-dark' : 'chart'}>
      <div ref={target} />
    </div>
  );
}
