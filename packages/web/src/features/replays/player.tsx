// The replayer and its controls: its own chunk, loaded by the recording's page (rrweb's replayer is ~60 KB gzip).
import { ActionIcon, Group, SegmentedControl, Switch, Text, Tooltip } from '@mantine/core';
import { Replayer } from '@rrweb/replay';
import '@rrweb/replay/dist/style.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { bounds, clock, FULL_SNAPSHOT, groupMarkers, inactivePeriods, MARKER_INFO, type Marker } from './timeline';
import type { RrwebEvent } from './types';
import './replays.css';

export const SPEEDS = ['1', '2', '4', '8'];
/** The slider's step (ms): what its arrow keys move. */
const RANGE_STEP = 100;
const SKIP_KEY = 'service:replay-skip-inactive';
const SPEED_KEY = 'service:replay-speed';

export interface PlayerProps {
  events: RrwebEvent[];
  markers: Marker[];
  /** A seek asked from outside (the event list): to `offset` ms; `n` makes the same offset a new request. */
  seek?: { offset: number; n: number };
  /** The time played (ms from the start), a few times a second while playing. */
  onTime?: (ms: number) => void;
}

/** Whether a key press belongs to a control that handles it (typing, a button's own space, a slider's arrows). */
const ownKeys = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName) || target.getAttribute('role') === 'slider');

export default function Player({ events, markers, seek, onTime }: PlayerProps) {
  const stage = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const replayer = useRef<Replayer | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [total, setTotal] = useState(0);
  const [size, setSize] = useState({ width: 1024, height: 768 });
  const [scale, setScale] = useState(1);
  const [skipping, setSkipping] = useState(false);
  const [skipInactive, setSkipInactive] = useState(() => localStorage.getItem(SKIP_KEY) !== 'false');
  const [speed, setSpeed] = useState(() => (SPEEDS.includes(localStorage.getItem(SPEED_KEY) ?? '') ? localStorage.getItem(SPEED_KEY)! : '1'));
  const inactive = useMemo(() => inactivePeriods(events), [events]);
  const firstFrame = useMemo(() => {
    const full = events.find((e) => e.type === FULL_SNAPSHOT);
    return full ? full.timestamp - bounds(events).start : 0;
  }, [events]);
  const groups = useMemo(() => groupMarkers(markers, total), [markers, total]);
  const onTimeRef = useRef(onTime);
  onTimeRef.current = onTime;

  const settings = useRef({ skipInactive, speed: Number(speed) });
  settings.current = { skipInactive, speed: Number(speed) };
  /**
   * The offset to hand rrweb for a time: it draws at once the events before it (`<`, not `<=`) and plays the rest on its
   * timer. A millisecond more draws the frame at that time; and never before the first full snapshot (which may come a
   * few ms after the recording's first event), which is then drawn at once rather than rebuilt by the timer while it
   * already plays the changes after it.
   */
  const from = (t: number) => Math.max(t, firstFrame) + 1;

  /**
   * A new replayer at `t`, drawn into the frame element (an iframe without scripts: `sandbox="allow-same-origin"`).
   * Going back in time makes a new one too: rrweb's own way back keeps state of the last play (the ids of nodes drawn
   * later, and an end of play announced 50 ms or more after the last event was drawn, which stopped a replay played
   * again right away), and a replay played again could miss changes.
   */
  const create = useRef((_t: number, _play: boolean) => {});
  create.current = (t: number, play: boolean) => {
    const root = frame.current!;
    replayer.current?.destroy();
    root.replaceChildren();
    // Each replayer its own copy: rrweb writes into the events it plays (their delays, a mutation's nodes), and one
    // played before left changes for the next one to miss.
    const r = new Replayer(structuredClone(events) as ConstructorParameters<typeof Replayer>[0], {
      root,
      ...settings.current,
      showWarning: false,
      mouseTail: false,
      triggerFocus: false,
      UNSAFE_replayCanvas: false,
      // A seek applies the changes up to that time straight to the page: rrweb's virtual DOM for them now and then left
      // out a change (a node it had added "not found" by the next change), so the frame at the end differed from the page.
      useVirtualDom: false,
    });
    replayer.current = r;
    // The recorded page is a frame of the app's page: named for screen readers.
    root.querySelector('iframe')?.setAttribute('title', 'The recorded page');
    setTotal(r.getMetaData().totalTime);
    // Events of a replayer since replaced are not this one's.
    const mine =
      <A extends unknown[]>(fn: (...args: A) => void) =>
      (...args: A) => {
        if (replayer.current === r) fn(...args);
      };
    r.on(
      'resize',
      mine((d) => setSize(d as { width: number; height: number })),
    );
    r.on(
      'finish',
      mine(() => {
        setPlaying(false);
        setTime(r.getMetaData().totalTime);
      }),
    );
    r.on(
      'skip-start',
      mine(() => setSkipping(true)),
    );
    r.on(
      'skip-end',
      mine(() => setSkipping(false)),
    );
    if (play) r.play(from(t));
    else r.pause(from(t));
  };

  useEffect(() => {
    create.current(0, false);
    const root = frame.current!;
    return () => {
      replayer.current?.destroy();
      replayer.current = null;
      root.replaceChildren();
    };
  }, [events]);

  useEffect(() => {
    replayer.current?.setConfig({ skipInactive, speed: Number(speed) });
  }, [skipInactive, speed]);

  // The recorded page, scaled to fit the stage.
  useEffect(() => {
    const el = stage.current!;
    const fit = () => setScale(Math.min(el.clientWidth / size.width, el.clientHeight / size.height, 1) || 1);
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [size]);

  // The clock follows the replayer while it plays.
  useEffect(() => {
    if (!playing) return;
    let id = 0;
    let reported = 0;
    const tick = () => {
      const t = replayer.current?.getCurrentTime() ?? 0;
      setTime(t);
      if (Math.abs(t - reported) >= 250) {
        reported = t;
        onTimeRef.current?.(t);
      }
      id = requestAnimationFrame(tick);
    };
    id = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(id);
  }, [playing]);

  const moveTo = (r: Replayer, t: number, play: boolean) => {
    if (from(t) < r.getCurrentTime()) create.current(t, play);
    else if (play) r.play(from(t));
    else r.pause(from(t));
  };
  const goTo = (offset: number, play = playing) => {
    const r = replayer.current;
    if (!r) return;
    const t = Math.min(Math.max(offset, 0), total);
    moveTo(r, t, play);
    setTime(t);
    onTimeRef.current?.(t);
  };
  const toggle = () => {
    const r = replayer.current;
    if (!r) return;
    if (playing) {
      r.pause();
      setTime(r.getCurrentTime());
      setPlaying(false);
    } else {
      // At the end, play starts over.
      moveTo(r, time >= total ? 0 : time, true);
      setPlaying(true);
    }
  };
  const toggleRef = useRef(toggle);
  toggleRef.current = toggle;
  const goToRef = useRef(goTo);
  goToRef.current = goTo;

  useEffect(() => {
    if (seek) goToRef.current(seek.offset);
  }, [seek]);

  // Space plays and pauses; the arrows step five seconds (unless a control has the focus and its own use of them).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || ownKeys(e.target)) return;
      if (e.key === ' ') toggleRef.current();
      else if (e.key === 'ArrowLeft') goToRef.current((replayer.current?.getCurrentTime() ?? 0) - 5000);
      else if (e.key === 'ArrowRight') goToRef.current((replayer.current?.getCurrentTime() ?? 0) + 5000);
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const pct = (ms: number) => `${total ? (ms / total) * 100 : 0}%`;
  // The slider's maximum is a whole number of steps, so that End reaches the end. Its value is always on a step (the end
  // at the maximum): the browser snaps a value off the steps, and React reports the snapped value as a change of its
  // own when a key's 'change' event follows its 'input' event, so End would seek back to the step before the end and
  // leave out the recording's last changes.
  const rangeMax = Math.ceil(total / RANGE_STEP) * RANGE_STEP;
  const rangeValue = time >= total ? rangeMax : Math.floor(time / RANGE_STEP) * RANGE_STEP;
  return (
    <div className="replay-player">
      <div ref={stage} className="replay-stage" aria-label="Replay of the session" role="region" style={{ aspectRatio: `${size.width} / ${size.height}` }}>
        <div className="replay-frame" ref={frame} style={{ width: size.width, height: size.height, transform: `translate(-50%, -50%) scale(${scale})` }} />
        {skipping && (
          <div className="replay-skipping" role="status">
            Skipping inactivity…
          </div>
        )}
      </div>
      <div className="replay-timeline">
        <div className="replay-markers" role="group" aria-label="Events on the timeline">
          {groups.map((g) => {
            const name = g.markers.map((m) => `${MARKER_INFO[m.kind].label}: ${m.label}`).join('; ');
            return (
              <Tooltip
                key={g.markers[0]!.id}
                label={g.markers.map((m) => (
                  <div key={m.id}>
                    {MARKER_INFO[m.kind].label}: {m.label}
                  </div>
                ))}
                withArrow
                openDelay={150}
                multiline
                maw={360}
              >
                <button
                  type="button"
                  className="replay-marker"
                  data-kind={g.kind}
                  data-count={g.markers.length > 1 ? g.markers.length : undefined}
                  style={{ left: pct(g.offset), background: `var(--mantine-color-${MARKER_INFO[g.kind].color}-filled)` }}
                  aria-label={`${clock(g.offset / 1000)}: ${name}`}
                  onClick={() => goTo(g.offset)}
                />
              </Tooltip>
            );
          })}
        </div>
        <div className="replay-track">
          {inactive.map(([from, to]) => (
            <div key={from} className="replay-inactive" style={{ left: pct(from), width: pct(to - from) }} title="No activity" />
          ))}
          <div className="replay-progress" style={{ width: pct(time) }} />
          <input
            type="range"
            className="replay-range"
            min={0}
            max={rangeMax}
            step={RANGE_STEP}
            value={rangeValue}
            onChange={(e) => goTo(Number(e.currentTarget.value))}
            aria-label="Position in the recording"
            aria-valuetext={`${clock(time / 1000)} of ${clock(total / 1000)}`}
          />
        </div>
      </div>
      <Group justify="space-between" gap="sm" wrap="wrap" className="replay-controls">
        <Group gap="sm" wrap="nowrap">
          <ActionIcon size="lg" variant="filled" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'} title={playing ? 'Pause (space)' : 'Play (space)'}>
            {playing ? <PauseIcon /> : <PlayIcon />}
          </ActionIcon>
          <Text size="sm" className="mono" aria-live="off" data-testid="replay-clock">
            {clock(time / 1000)} / {clock(total / 1000)}
          </Text>
        </Group>
        <Group gap="md" wrap="wrap">
          <Switch
            label="Skip inactivity"
            checked={skipInactive}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setSkipInactive(on);
              localStorage.setItem(SKIP_KEY, String(on));
            }}
          />
          <SegmentedControl
            size="xs"
            aria-label="Speed"
            data={SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
            value={speed}
            onChange={(s) => {
              setSpeed(s);
              localStorage.setItem(SPEED_KEY, s);
            }}
          />
        </Group>
      </Group>
    </div>
  );
}

const PlayIcon = () => (
  <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
    <path d="M4 2.5v11l9-5.5z" fill="currentColor" />
  </svg>
);
const PauseIcon = () => (
  <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
    <path d="M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z" fill="currentColor" />
  </svg>
);
