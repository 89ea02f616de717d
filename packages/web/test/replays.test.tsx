import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionKeys } from '../src/api/hooks';
import { replayKeys } from '../src/features/replays/api';
import { replaysUrl, replayUrl } from '../src/features/replays/filters';
import ReplayListPage from '../src/features/replays/replay-list-page';
import { EventList } from '../src/features/replays/replay-page';
import { draftOf, patchOf, SettingsForm } from '../src/features/replays/replay-settings';
import { markersOf } from '../src/features/replays/timeline';
import type { ReplaySettings, SessionRecording } from '../src/features/replays/types';
import { VariantReplays } from '../src/features/experiments/experiment-results';
import type { Experiment } from '../src/features/experiments/types';
import { renderPage } from './render';

const recording = (over: Partial<SessionRecording>): SessionRecording => ({
  id: '0192c4a8-0000-7000-8000-000000000001',
  distinct_id: 'ada',
  person: { id: 'p1', name: 'ada@example.com', distinct_ids: ['ada'] },
  start_time: new Date(Date.now() - 3_600_000).toISOString(),
  end_time: new Date().toISOString(),
  duration: 185,
  active_seconds: 40,
  click_count: 12,
  keypress_count: 1_204,
  console_log_count: 0,
  console_warn_count: 0,
  console_error_count: 1,
  exception_count: 2,
  start_url: 'https://shop.test/checkout',
  event_count: 30,
  size_bytes: 40_000,
  ongoing: false,
  ...over,
});
const list = (results: SessionRecording[]) => ({ count: results.length, next: null, previous: null, results });
const at = (url: string) => ({ path: '/project/$projectId/replays', url });

const settings: ReplaySettings = {
  enabled: false,
  sample_rate: 1,
  minimum_duration_ms: 0,
  linked_flag: null,
  mask_all_text: false,
  mask_text_selector: null,
  block_selector: null,
  console_logs: false,
  network_timings: false,
  record_canvas: false,
  url_triggers: [],
  url_blocklist: [],
  event_triggers: [],
  retention_days: 30,
  storage: { bytes: 5_452_595, sessions: 12 },
};
const me = { id: 1, email: 'ada@example.com', role: 'member', csrf_token: 't' };

afterEach(() => vi.unstubAllGlobals());

describe('the recordings list', () => {
  it('shows each recording: person, duration, clicks, keys, errors and first page, each a link to its player', async () => {
    const rows = [
      // Batches that came just now, of a session that ended two hours ago (a device back online): not live.
      recording({ ongoing: true, end_time: new Date(Date.now() - 7_200_000).toISOString() }),
      recording({ id: 's2', distinct_id: 'anon-7', person: null, exception_count: 0, console_error_count: 0, ongoing: true, start_url: null }),
    ];
    await renderPage(() => <ReplayListPage />, [[replayKeys.list(1, {}, 1, 25), list(rows)]], at('/project/1/replays'));
    const table = screen.getByRole('table', { name: 'Recordings' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByRole('link', { name: 'ada@example.com' }).getAttribute('href')).toBe(`/project/1/replays/${rows[0]!.id}`);
    expect(first!.textContent).toContain('3 min 5 s');
    expect(first!.textContent).toContain('1,204');
    expect(within(first!).getAllByRole('cell')[5]!.textContent).toBe('3');
    expect(first!.textContent).toContain('https://shop.test/checkout');
    // Without a known person: the distinct id it was recorded under; still being recorded: said so.
    expect(within(second!).getByRole('link', { name: 'anon-7' })).toBeTruthy();
    expect(within(second!).getByText('Ongoing')).toBeTruthy();
    expect(within(first!).queryByText('Ongoing')).toBeNull();
    expect(screen.getByText('2 recordings')).toBeTruthy();
  });

  it('says how to start when there is nothing, and how to widen the search when the filters match nothing', async () => {
    await renderPage(
      () => <ReplayListPage />,
      [
        [replayKeys.list(1, {}, 1, 25), list([])],
        [replayKeys.settings(1), settings],
      ],
      at('/project/1/replays'),
    );
    expect(screen.getByRole('heading', { name: 'No recordings yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Turn on recording' }).getAttribute('href')).toBe('/project/1/settings/project#session-replay');
  });

  it('says that sessions are on their way when recording is on', async () => {
    await renderPage(
      () => <ReplayListPage />,
      [
        [replayKeys.list(1, {}, 1, 25), list([])],
        [replayKeys.settings(1), { ...settings, enabled: true, sample_rate: 0.25 }],
      ],
      at('/project/1/replays'),
    );
    expect(screen.getByText(/^Recording is on: .*\(25% of sessions are recorded\)\.$/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Turn on recording' })).toBeNull();
  });

  it('reads its filters from the address, as the experiment and person pages link to it', async () => {
    const filters = { flag: 'new-checkout', variant: 'test', has_errors: 'true' };
    await renderPage(() => <ReplayListPage />, [[replayKeys.list(1, filters, 1, 25), list([])]], at(replaysUrl(1, filters)));
    expect(screen.getByRole('heading', { name: 'No recording matches these filters' })).toBeTruthy();
    expect(screen.getByText('Flag new-checkout = test')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'With errors' }) as HTMLInputElement).checked).toBe(true);
    expect(replayUrl(1, 'a/b', '2026-01-01T00:00:00.000Z')).toBe('/project/1/replays/a%2Fb?at=2026-01-01T00%3A00%3A00.000Z');
  });
});

describe("the player's event list", () => {
  it('marks the event playing and seeks to the one clicked', async () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const markers = markersOf(
      [
        { uuid: 'a', event: '$pageview', timestamp: '2026-01-01T00:00:01Z', properties: { $pathname: '/' } },
        { uuid: 'b', event: 'signed_up', timestamp: '2026-01-01T00:00:30Z', properties: {} },
      ],
      start,
      60_000,
    );
    const seek = vi.fn();
    await renderPage(() => <EventList markers={markers} time={10_000} onSeek={seek} />);
    const [pageview, signup] = screen.getAllByRole('button');
    expect(pageview!.getAttribute('aria-current')).toBe('true');
    expect(signup!.getAttribute('aria-current')).toBeNull();
    fireEvent.click(signup!);
    expect(seek).toHaveBeenCalledWith(30_000);
  });
});

describe('the session replay settings', () => {
  it('turn percentages, seconds and lines into what the API takes, and back', () => {
    const patch = patchOf({
      ...draftOf(settings),
      samplePercent: 25,
      minimumSeconds: 2.5,
      urlTriggers: '/checkout\n\n  /cart  ',
      flagKey: 'beta',
      flagVariant: '',
    });
    expect(patch).toMatchObject({
      sample_rate: 0.25,
      minimum_duration_ms: 2500,
      url_triggers: [
        { url: '/checkout', matching: 'regex' },
        { url: '/cart', matching: 'regex' },
      ],
    });
    expect(patch.linked_flag).toEqual({ key: 'beta', variant: null });
    expect(draftOf({ ...settings, ...patch } as ReplaySettings)).toMatchObject({ samplePercent: 25, minimumSeconds: 2.5, urlTriggers: '/checkout\n/cart' });
  });

  it('show the disk use, save what changed, and put an error of the API beside its field', async () => {
    const fetch = vi.fn(async (url: string, init: RequestInit) => {
      if (url.includes('/feature_flags/')) return new Response(JSON.stringify({ count: 0, next: null, previous: null, results: [] }));
      const body = JSON.parse(String(init.body));
      if (body.url_triggers.length)
        return new Response(
          JSON.stringify({ type: 'validation_error', code: 'invalid_regex', detail: 'Not a regular expression: "(".', attr: 'url_triggers__0__url' }),
          {
            status: 400,
          },
        );
      return new Response(JSON.stringify({ ...settings, ...body }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetch);
    await renderPage(() => <SettingsForm projectId={1} settings={settings} />, [[sessionKeys.me, me]]);
    expect(screen.getByTestId('replay-storage').textContent).toBe('12 recordings take 5.2 MB on disk; each is kept for 30 days after it ends.');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(screen.getByRole('switch', { name: /^Record sessions/ }));
    fireEvent.change(screen.getByRole('textbox', { name: /^Start on these URLs/ }), { target: { value: '(' } });
    await act(async () => fireEvent.click(save));
    await waitFor(() => expect(screen.getByText('Not a regular expression: "(".')).toBeTruthy());
    const saves = () => fetch.mock.calls.filter(([url]) => url === '/api/projects/1/session_recording_settings/');
    expect(saves()).toHaveLength(1);
    expect(saves()[0]![1].method).toBe('PATCH');

    fireEvent.change(screen.getByRole('textbox', { name: /^Start on these URLs/ }), { target: { value: '' } });
    await act(async () => fireEvent.click(save));
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(JSON.parse(String(saves()[1]![1].body))).toMatchObject({ enabled: true, sample_rate: 1, url_triggers: [] });
  });
});

describe('links to recordings', () => {
  it("from an experiment: each variant's sessions, by the flag and the variant", async () => {
    const experiment = { feature_flag_key: 'new-checkout', variants: [{ key: 'control' }, { key: 'test' }] } as unknown as Experiment;
    await renderPage(() => <VariantReplays experiment={experiment} />, [], { path: '/project/$projectId/experiments/$id', url: '/project/3/experiments/9' });
    expect(screen.getByRole('link', { name: 'Replays of variant test' }).getAttribute('href')).toBe('/project/3/replays?flag=new-checkout&variant=test');
    expect(screen.getByRole('link', { name: 'Replays of variant control' }).getAttribute('href')).toBe('/project/3/replays?flag=new-checkout&variant=control');
  });
});
