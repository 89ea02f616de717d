import { describe, expect, it } from 'vitest';
import { bounds, bytes, clock, duration, groupMarkers, inactivePeriods, markersOf, playable } from '../src/features/replays/timeline';
import type { RrwebEvent, SessionEvent } from '../src/features/replays/types';
import recording from './fixtures/replay-session.json';

const events = recording as RrwebEvent[];
const ev = (event: string, ms: number, properties: SessionEvent['properties'] = {}): SessionEvent => ({
  uuid: `${event}-${ms}`,
  event,
  timestamp: new Date(1_700_000_000_000 + ms).toISOString(),
  properties,
});

describe("the player's timeline", () => {
  it('finds the minute without activity in a recording made in Chromium, and nothing else', () => {
    const { start, end } = bounds(events);
    const periods = inactivePeriods(events);
    expect(periods).toHaveLength(1);
    const [from, to] = periods[0]!;
    expect(to - from).toBeGreaterThan(60_000);
    expect(to).toBeLessThan(end - start);
  });

  it('counts a quiet end as inactive, and a recording without a full snapshot as not playable', () => {
    const quiet: RrwebEvent[] = [
      { type: 4, timestamp: 0, data: { href: 'https://a.test/', width: 800, height: 600 } },
      { type: 2, timestamp: 1, data: {} },
      { type: 3, timestamp: 2_000, data: { source: 2 } },
      // A DOM mutation is not the person's doing.
      { type: 3, timestamp: 30_000, data: { source: 0 } },
    ];
    expect(inactivePeriods(quiet)).toEqual([[2_000, 30_000]]);
    expect(playable(quiet)).toBe(true);
    expect(playable(quiet.filter((e) => e.type !== 2))).toBe(false);
    expect(playable(events)).toBe(true);
  });

  it("places pageviews, clicks, custom events and exceptions, within the recording, and leaves out the SDK's own", () => {
    const start = 1_700_000_000_000;
    const markers = markersOf(
      [
        ev('$exception', 9_000, { $exception_types: ['TypeError'], $exception_message: 'x is undefined' }),
        ev('$pageview', 0, { $pathname: '/checkout', $current_url: 'https://shop.test/checkout' }),
        ev('$autocapture', 3_000, { $event_type: 'click', $el_text: 'Pay now' }),
        ev('$autocapture', 3_500, { $event_type: 'change' }),
        ev('$identify', 4_000),
        ev('checkout_completed', 60_000),
      ],
      start,
      20_000,
    );
    expect(markers.map((m) => [m.kind, m.offset, m.label])).toEqual([
      ['pageview', 0, '/checkout'],
      ['click', 3_000, 'Clicked "Pay now"'],
      ['exception', 9_000, 'TypeError: x is undefined'],
      // After the recording's end (its last batch not in yet): at the end.
      ['custom', 20_000, 'checkout_completed'],
    ]);
  });

  it('draws markers too close to tell apart as one, in the colour of the most telling of them', () => {
    const start = 1_700_000_000_000;
    const markers = markersOf([ev('$pageview', 0), ev('checkout_started', 500), ev('$exception', 700), ev('$pageview', 30_000)], start, 60_000);
    const groups = groupMarkers(markers, 60_000);
    expect(groups.map((g) => [g.offset, g.kind, g.markers.length])).toEqual([
      [0, 'exception', 3],
      [30_000, 'pageview', 1],
    ]);
  });

  it('says times, durations and sizes in short words', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(62.9)).toBe('1:02');
    expect(clock(3_725)).toBe('1:02:05');
    expect(duration(45)).toBe('45 s');
    expect(duration(185)).toBe('3 min 5 s');
    expect(duration(120)).toBe('2 min');
    expect(duration(3_720)).toBe('1 h 2 min');
    expect(bytes(812)).toBe('812 B');
    expect(bytes(4_300)).toBe('4.2 KB');
    expect(bytes(1_363_149)).toBe('1.3 MB');
  });
});
