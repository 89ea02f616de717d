import { liftInterval, percent, type LiftInterval } from './types';

export interface IntervalRow {
  key: string;
  estimate: number;
  /** A null end: unbounded, drawn to the edge of the chart with an arrow. */
  interval: LiftInterval;
}

const WIDTH = 640;
const LABEL = 130;
const RIGHT = 16;
const ROW = 34;
const TOP = 10;
const AXIS = 28;

/** Round tick steps for a range (0.01, 0.02, 0.05, 0.1, …). */
function ticks(lo: number, hi: number): number[] {
  const raw = (hi - lo) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step / 1e6; t += step) out.push(Number(t.toFixed(10)));
  return out;
}

/** The colour of an interval: above zero green, below red, across zero grey (not conclusive). */
const colorOf = ([lo, hi]: IntervalRow['interval']) =>
  lo !== null && lo > 0 ? 'var(--mantine-color-green-filled)' : hi !== null && hi < 0 ? 'var(--mantine-color-red-filled)' : 'var(--mantine-color-gray-6)';

/**
 * Each variant's lift against control as a horizontal interval (a line from the low to the high end, a dot at the
 * estimate) around a line at 0 (control). Plain SVG; a screen reader gets the same numbers in its label (the table
 * next to it has them too).
 */
export function IntervalChart({ rows, label }: { rows: IntervalRow[]; label: string }) {
  const finite = rows.flatMap((r) => [r.interval[0], r.interval[1], r.estimate]).filter((v): v is number => v !== null && Number.isFinite(v));
  let lo = Math.min(0, ...finite);
  let hi = Math.max(0, ...finite);
  if (hi - lo < 1e-9) {
    lo -= 0.01;
    hi += 0.01;
  }
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const x = (v: number) => LABEL + ((v - lo) / (hi - lo)) * (WIDTH - LABEL - RIGHT);
  const height = TOP + rows.length * ROW + AXIS;
  const summary = rows.map((r) => `${r.key}: ${percent(r.estimate, true)} (${liftInterval(r.interval)})`).join('; ');
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      role="img"
      aria-label={`${label}. ${summary || 'No variant to compare yet.'}`}
      style={{ maxWidth: WIDTH, display: 'block', fontSize: 12 }}
    >
      {ticks(lo, hi).map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={TOP - 4} y2={TOP + rows.length * ROW} stroke="var(--mantine-color-default-border)" strokeWidth={1} />
          <text x={x(t)} y={height - 8} textAnchor="middle" fill="var(--mantine-color-dimmed)">
            {percent(t, true, Math.abs(t) < 0.1 && t !== 0 ? 1 : 0)}
          </text>
        </g>
      ))}
      <line x1={x(0)} x2={x(0)} y1={TOP - 6} y2={TOP + rows.length * ROW} stroke="var(--mantine-color-text)" strokeWidth={1.5} strokeDasharray="4 3" />
      {rows.map((r, i) => {
        const y = TOP + i * ROW + ROW / 2;
        const color = colorOf(r.interval);
        const [from, to] = [x(r.interval[0] ?? lo), x(r.interval[1] ?? hi)];
        return (
          <g key={r.key}>
            <text x={LABEL - 10} y={y + 4} textAnchor="end" fill="var(--mantine-color-text)" style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>
              {r.key.length > 16 ? `${r.key.slice(0, 15)}…` : r.key}
            </text>
            <line x1={from} x2={to} y1={y} y2={y} stroke={color} strokeWidth={6} strokeLinecap="round" opacity={0.45} />
            {r.interval[0] === null && <path d={`M${from - 6},${y} l9,-7 v14 z`} fill={color} opacity={0.7} />}
            {r.interval[1] === null && <path d={`M${to + 6},${y} l-9,-7 v14 z`} fill={color} opacity={0.7} />}
            <circle cx={x(r.estimate)} cy={y} r={5.5} fill={color} />
          </g>
        );
      })}
    </svg>
  );
}
