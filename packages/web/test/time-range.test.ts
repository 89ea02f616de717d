import { describe, expect, it } from 'vitest';
import { DAY_STEPS, dayLabel, dayRange } from '../src/components/time-range';

// The x axis of the day charts (exposures per day, opt-ins per day, flag evaluations): a single day sits between the
// day before and the day after (uPlot's own range for one time point spans 1,000 days), ticks fall on whole days.
const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

describe('dayRange', () => {
  it('spans a single day with the day before and the day after', () => {
    expect(dayRange(day('2026-11-28'), day('2026-11-28'))).toEqual([day('2026-11-27'), day('2026-11-29')]);
  });

  it('runs from the first day to the last when there are several', () => {
    expect(dayRange(day('2026-11-01'), day('2026-11-28'))).toEqual([day('2026-11-01'), day('2026-11-28')]);
  });

  it('gives some range without data', () => {
    const [from, to] = dayRange(null, null);
    expect(to).toBeGreaterThan(from);
  });
});

describe('dayLabel', () => {
  it('names a day by month and day, and by year too when the range spans two', () => {
    expect(dayLabel(day('2026-11-28'), [day('2026-11-01'), day('2026-11-30')])).toBe('Nov 28');
    expect(dayLabel(day('2027-01-02'), [day('2026-12-20'), day('2027-01-05')])).toBe('Jan 2, 2027');
  });

  it('steps whole days between ticks', () => {
    expect(DAY_STEPS.every((step) => step % 86_400 === 0)).toBe(true);
  });
});
