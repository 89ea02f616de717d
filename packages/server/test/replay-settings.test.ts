import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Changes } from '../src/changes';
import { RECORDING_OFF, ReplayRemoteConfigs, remoteConfigOf } from '../src/session-replay/remote-config';
import { DEFAULT_SETTINGS, settingsOf, type ReplaySettings } from '../src/session-replay/settings';
import { dialect, startService, testStorage, type TestService } from './helpers';

// Issue 33: a project's session recording settings (off by default), and what posthog-js reads of them in the remote
// config (`/array/<token>/config`, `config.js`) and in `/flags?config=true`.

let s: TestService;
let url: string;
beforeAll(async () => {
  s = await startService();
  url = `/api/projects/${s.projectId}/session_recording_settings/`;
});
afterAll(() => s.close());

type Body = Record<string, unknown>;
const patch = (payload: Body, headers: Record<string, string> = s.headers) => s.app.inject({ method: 'PATCH', url, headers, payload });
const read = async () => {
  const res = await s.app.inject({ url, headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Body;
};
/** What the three places posthog-js (or service-js) reads the config from say, after checking they agree. */
async function remote(token = s.token) {
  const json = (await s.app.inject({ url: `/array/${token}/config` })).json();
  const script = (await s.app.inject({ url: `/array/${token}/config.js` })).body;
  const window: { _POSTHOG_REMOTE_CONFIG?: Record<string, { config: Body }> } = {};
  new Function('window', script)(window);
  const flags = (await s.app.inject({ method: 'POST', url: '/flags/?v=2&config=true', payload: { token, distinct_id: 'u1' } })).json();
  for (const field of ['sessionRecording', 'capturePerformance'])
    expect([window._POSTHOG_REMOTE_CONFIG![token]!.config[field], flags[field]]).toEqual([json[field], json[field]]);
  return { sessionRecording: json.sessionRecording, capturePerformance: json.capturePerformance };
}
async function flag(key: string, variants?: string[]) {
  const filters: Body = { groups: [{ properties: [], rollout_percentage: 100 }] };
  if (variants) filters.multivariate = { variants: variants.map((v, i) => ({ key: v, rollout_percentage: i === 0 ? 100 : 0 })) };
  const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload: { key, filters } });
  expect(res.statusCode, res.body).toBe(201);
}

describe('session recording settings', () => {
  it('are off by default, with the retention and an empty storage; the remote config says sessionRecording: false', async () => {
    expect(await read()).toEqual({ ...DEFAULT_SETTINGS, retention_days: 30, storage: { bytes: 0, sessions: 0 } });
    expect(await remote()).toEqual({ sessionRecording: false, capturePerformance: false });
  });

  it('turned on, give the remote config in the shape posthog-js reads, at once (the cached config is dropped)', async () => {
    const res = await patch({ enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().enabled).toBe(true);
    expect(await remote()).toEqual({
      sessionRecording: {
        endpoint: '/s/',
        sampleRate: '1.00',
        minimumDurationMilliseconds: 0,
        linkedFlag: null,
        masking: { maskAllInputs: true },
        consoleLogRecordingEnabled: false,
        recordCanvas: false,
        networkPayloadCapture: null,
        urlTriggers: [],
        urlBlocklist: [],
        eventTriggers: [],
        triggerMatchType: 'any',
        scriptConfig: null,
      },
      capturePerformance: false,
    });
    // Another project keeps its own (off).
    const other = await s.services.projects.create('Not recording');
    expect((await remote(other.api_token)).sessionRecording).toBe(false);
  });

  it('carry every option, changed one field at a time, to the remote config', async () => {
    await flag('replay-beta', ['control', 'test']);
    const res = await patch({
      sample_rate: 0.5,
      minimum_duration_ms: 2000,
      linked_flag: { key: 'replay-beta', variant: 'test' },
      mask_text_selector: '.secret, [data-private]',
      block_selector: '#chat',
      console_logs: true,
      network_timings: true,
      record_canvas: true,
      url_triggers: [{ url: '^https://app\\.example\\.com/checkout', matching: 'regex' }],
      url_blocklist: [{ url: '/admin', matching: 'regex' }],
      event_triggers: ['checkout started'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await remote()).toEqual({
      sessionRecording: expect.objectContaining({
        sampleRate: '0.50',
        minimumDurationMilliseconds: 2000,
        linkedFlag: { flag: 'replay-beta', variant: 'test' },
        masking: { maskAllInputs: true, maskTextSelector: '.secret, [data-private]', blockSelector: '#chat' },
        consoleLogRecordingEnabled: true,
        recordCanvas: true,
        urlTriggers: [{ url: '^https://app\\.example\\.com/checkout', matching: 'regex' }],
        urlBlocklist: [{ url: '/admin', matching: 'regex' }],
        eventTriggers: ['checkout started'],
      }),
      capturePerformance: { network_timing: true },
    });
    // What was not sent stays; a linked flag without a variant is its key; masking all text is posthog-js's '*'.
    expect((await patch({ linked_flag: { key: 'replay-beta', variant: null }, mask_all_text: true, network_timings: false })).statusCode).toBe(200);
    const after = await read();
    expect(after).toMatchObject({ sample_rate: 0.5, minimum_duration_ms: 2000, console_logs: true, mask_all_text: true });
    const { sessionRecording, capturePerformance } = await remote();
    expect(sessionRecording.linkedFlag).toBe('replay-beta');
    expect(sessionRecording.masking).toEqual({ maskAllInputs: true, maskTextSelector: '*', blockSelector: '#chat' });
    expect(capturePerformance).toBe(false);
  });

  it('log each change in the activity log, naming the fields that changed', async () => {
    await patch({ sample_rate: 0.25 });
    await patch({ sample_rate: 0.25 });
    const log = await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=SessionRecordingSettings`, headers: s.headers });
    expect(log.statusCode, log.body).toBe(200);
    const [latest, before] = log.json().results as Array<{ activity: string; detail: { changes: Body[] } }>;
    expect(latest!.activity).toBe('updated');
    expect(latest!.detail.changes).toEqual([{ field: 'sample_rate', before: 0.5, after: 0.25 }]);
    // The same value again changed nothing, and logged nothing.
    expect(before!.detail.changes.map((c) => c.field)).not.toEqual(['sample_rate']);
  });

  it('are written as ASCII in /flags, whatever the selectors hold', async () => {
    expect((await patch({ mask_all_text: false, mask_text_selector: '[aria-label="Üser ✓"]' })).statusCode).toBe(200);
    const res = await s.app.inject({ method: 'POST', url: '/flags/?v=2&config=true', payload: { token: s.token, distinct_id: 'u1' } });
    expect([...res.body].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
    expect(res.json().sessionRecording.masking.maskTextSelector).toBe('[aria-label="Üser ✓"]');
  });

  it('refuse what would break a page or hang: 400 naming the field', async () => {
    const cases: Array<[Body, string]> = [
      [{ sample_rate: 1.5 }, 'sample_rate'],
      [{ sample_rate: 'half' }, 'sample_rate'],
      [{ minimum_duration_ms: -1 }, 'minimum_duration_ms'],
      [{ minimum_duration_ms: 1.5 }, 'minimum_duration_ms'],
      [{ url_triggers: [{ url: '(unclosed', matching: 'regex' }] }, 'url_triggers__0__url'],
      // Backreferences are not RE2: no pattern may backtrack.
      [
        {
          url_blocklist: [
            { url: '/ok', matching: 'regex' },
            { url: '(a+)\\1', matching: 'regex' },
          ],
        },
        'url_blocklist__1__url',
      ],
      [{ url_triggers: [{ url: '/x', matching: 'exact' }] }, 'url_triggers__0__matching'],
      [{ event_triggers: [''] }, 'event_triggers__0'],
      [{ linked_flag: { key: 'no-such-flag', variant: null } }, 'linked_flag__key'],
      [{ linked_flag: { key: 'replay-beta', variant: 'nope' } }, 'linked_flag__variant'],
      [{ mask_text_selector: 'a\u0000b' }, 'mask_text_selector'],
      [{ enabled: 'yes please' }, 'enabled'],
    ];
    const before = await read();
    for (const [payload, attr] of cases) {
      const res = await patch(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ type: 'validation_error', attr });
    }
    expect(await read()).toEqual(before);
  });

  it('read with session_recording:read, change with session_recording:write; other scopes and projects are refused', async () => {
    const reader = s.auth(await s.keyWith(['session_recording:read']));
    expect((await s.app.inject({ url, headers: reader })).statusCode).toBe(200);
    expect((await patch({ enabled: false }, reader)).statusCode).toBe(403);
    const writer = s.auth(await s.keyWith(['session_recording:write']));
    expect((await patch({ record_canvas: false }, writer)).statusCode).toBe(200);
    const unrelated = s.auth(await s.keyWith(['survey:write']));
    expect((await s.app.inject({ url, headers: unrelated })).statusCode).toBe(403);
    const other = await s.services.projects.create('Elsewhere');
    const limited = s.auth(await s.keyWith(['session_recording:write'], [other.id]));
    expect((await s.app.inject({ url, headers: limited })).statusCode).toBe(403);
    expect((await s.app.inject({ url: `/api/projects/999999/session_recording_settings/`, headers: s.headers })).statusCode).toBe(404);
  });
});

describe('the remote config of the settings', () => {
  it('is false when recording is off, whatever else is set', () => {
    expect(remoteConfigOf({ ...DEFAULT_SETTINGS, console_logs: true, network_timings: true })).toBe(RECORDING_OFF);
  });

  it('gives the sample rate with two decimals, and never lets inputs go unmasked', () => {
    const on = { ...DEFAULT_SETTINGS, enabled: true };
    expect((remoteConfigOf({ ...on, sample_rate: 0.333 }).sessionRecording as { sampleRate: string }).sampleRate).toBe('0.33');
    expect((remoteConfigOf({ ...on, sample_rate: 0 }).sessionRecording as { sampleRate: string }).sampleRate).toBe('0.00');
    const masking = (remoteConfigOf({ ...on, mask_text_selector: '' }).sessionRecording as { masking: Body }).masking;
    expect(masking).toEqual({ maskAllInputs: true });
  });
});

// Other instances hear of a change through PostgreSQL LISTEN/NOTIFY (their cached config is kept up to a minute else).
if (dialect === 'postgres') {
  describe('two service instances on one PostgreSQL database', () => {
    it("drop the other instance's cached remote config when the settings change", async () => {
      const storage = testStorage();
      const a = await startService({}, storage);
      const b = await startService({}, storage);
      try {
        const recording = async () => (await b.app.inject({ url: `/array/${a.token}/config` })).json().sessionRecording;
        expect(await recording()).toBe(false); // cached in b now
        const res = await a.app.inject({
          method: 'PATCH',
          url: `/api/projects/${a.projectId}/session_recording_settings/`,
          headers: a.headers,
          payload: { enabled: true },
        });
        expect(res.statusCode).toBe(200);
        for (let i = 0; i < 100 && (await recording()) === false; i++) await new Promise((r) => setTimeout(r, 20));
        expect(await recording()).toMatchObject({ endpoint: '/s/' });
      } finally {
        await b.close({ keepData: true });
        await a.close();
      }
    });
  });
}

describe('stored settings', () => {
  it('read a value that is not of its field as the default, and keep the rest', () => {
    const config = JSON.stringify({ sample_rate: 0.3, linked_flag: 'not-an-object', url_triggers: [{ url: 5 }], console_logs: 'yes', unknown: 1 });
    expect(settingsOf({ enabled: 1, config })).toEqual({ ...DEFAULT_SETTINGS, enabled: true, sample_rate: 0.3 });
    expect(settingsOf({ enabled: 0, config: 'not json' })).toEqual(DEFAULT_SETTINGS);
  });
});

describe('the cached remote configs', () => {
  it('read each project once until its flags change (that project only) or notices were lost; a failed read is not kept', async () => {
    const reads: number[] = [];
    let fail = false;
    const changes = new Changes();
    const configs = new ReplayRemoteConfigs(
      {
        stored: async (projectId: number): Promise<ReplaySettings> => {
          reads.push(projectId);
          if (fail) throw new Error('database gone');
          return { ...DEFAULT_SETTINGS, enabled: projectId === 1 };
        },
      },
      changes,
    );
    const first = await configs.remoteConfig(1);
    expect(await configs.remoteConfig(1)).toBe(first);
    expect(await configs.remoteConfig(2)).toBe(RECORDING_OFF);
    expect(reads).toEqual([1, 2]);
    changes.flagsChanged(2);
    await configs.remoteConfig(1);
    await configs.remoteConfig(2);
    expect(reads).toEqual([1, 2, 2]);
    changes.emit('gap');
    fail = true;
    await expect(configs.remoteConfig(1)).rejects.toThrow('database gone');
    fail = false;
    expect(await configs.enabled(1)).toBe(true);
    expect(reads).toEqual([1, 2, 2, 1, 1]);
  });
});
