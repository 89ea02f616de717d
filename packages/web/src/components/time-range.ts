const DAY = 86_400;

/**
 * The x range, in seconds, of a chart of UTC days: from the first day to the last, or a day either side of a single
 * one. Given the days themselves: left to itself, uPlot widens a single time point to 1,000 days (86,400 divided by its
 * `ms` option).
 */
export function dayRange(min: number | null, max: number | null): [number, number] {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, DAY];
  return max > min ? [min, max] : [min - DAY, min + DAY];
}

/** Steps between the day axis' ticks: whole days, so that no tick falls at noon. */
export const DAY_STEPS = [1, 2, 3, 7, 14, 28, 56, 91, 182, 364].map((days) => days * DAY);

/** A tick of the day axis: "Nov 28", with the year when the range spans more than one ("Nov 28, 2026"). */
export function dayLabel(seconds: number, [from, to]: [number, number]): string {
  const year = (s: number) => new Date(s * 1000).getUTCFullYear();
  const withYear = year(from) !== year(to);
  return new Date(seconds * 1000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC', ...(withYear ? { year: 'numeric' } : {}) });
}
