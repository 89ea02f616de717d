import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
const created: Record<string, { id: string; feature_flag: { key: string } }> = {};

beforeAll(async () => {
  s = await startService();
  for (const [name, stage] of [
    ['Sprocket', 'beta'],
    ['Widget', 'alpha'],
    ['Draft thing', 'draft'],
    ['Idea', 'concept'],
  ] as const) {
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: s.headers,
      payload: {
        name,
        stage,
        description: `About ${name}`,
        ...(name === 'Sprocket' ? { documentation_url: 'https://docs.example.com/sprocket', payload: { banner: 'Try it', steps: [1, 2] } } : {}),
      },
    });
    expect(res.statusCode).toBe(201);
    created[name] = res.json();
  }
});
afterAll(() => s.close());

const get = (query: string, headers: Record<string, string> = {}) => s.app.inject({ url: `/api/early_access_features/${query}`, headers });
const names = (res: { json(): { earlyAccessFeatures: { name: string }[] } }) => res.json().earlyAccessFeatures.map((f) => f.name);

describe('GET /api/early_access_features/', () => {
  it("lists the beta features by default, with PostHog's fields in order", async () => {
    const res = await get(`?token=${s.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      JSON.stringify({
        earlyAccessFeatures: [
          {
            id: created.Sprocket!.id,
            name: 'Sprocket',
            description: 'About Sprocket',
            stage: 'beta',
            documentationUrl: 'https://docs.example.com/sprocket',
            flagKey: 'sprocket',
            payload: { banner: 'Try it', steps: [1, 2] },
          },
        ],
      }),
    );
  });

  it('gives payload null for a feature without one, and the updated payload after a PATCH', async () => {
    const idea = () => get(`?token=${s.token}&stage=concept`).then((res) => res.json().earlyAccessFeatures[0]);
    expect((await idea()).payload).toBeNull();
    const patched = await s.app.inject({
      method: 'PATCH',
      url: `/api/projects/${s.projectId}/early_access_feature/${created.Idea!.id}/`,
      headers: s.headers,
      payload: { payload: { waitlist: true } },
    });
    expect(patched.statusCode).toBe(200);
    expect((await idea()).payload).toEqual({ waitlist: true });
  });

  it('takes repeated stage parameters, and matches unknown stages to nothing', async () => {
    expect(names(await get(`?token=${s.token}&stage=concept&stage=alpha`)).sort()).toEqual(['Idea', 'Widget']);
    expect(names(await get(`?token=${s.token}&stage=alpha`))).toEqual(['Widget']);
    expect(names(await get(`?token=${s.token}&stage=nonsense`))).toEqual([]);
  });

  it('takes the token as api_key, with or without the trailing slash', async () => {
    const res = await s.app.inject({ url: `/api/early_access_features?api_key=${s.token}` });
    expect(names(res)).toEqual(['Sprocket']);
  });

  it("lists only the token's project", async () => {
    const other = await s.services.projects.create('No features');
    expect((await get(`?token=${other.api_token}`)).json()).toEqual({ earlyAccessFeatures: [] });
  });

  it('answers 401 missing_api_key without a token and invalid_api_key for an unknown one', async () => {
    const missing = await get('');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({
      type: 'authentication_error',
      code: 'missing_api_key',
      detail: 'API key not provided. You can find your project API key in your project settings.',
      attr: null,
    });
    const unknown = await get('?token=phc_unknown');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({
      type: 'authentication_error',
      code: 'invalid_api_key',
      detail: 'Project API key invalid. You can find your project API key in your project settings.',
      attr: null,
    });
  });

  it('echoes the Origin with credentials, on success and on errors, and answers preflights', async () => {
    const origin = 'http://127.0.0.1:8000';
    for (const res of [await get(`?token=${s.token}`, { origin }), await get('', { origin }), await get('?token=phc_unknown', { origin })]) {
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    }
    expect((await get(`?token=${s.token}`)).headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await s.app.inject({
      method: 'OPTIONS',
      url: '/api/early_access_features/',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
  });

  it('limits requests per project token with 429 throttled_error', async () => {
    const limited = await startService({ publicRateLimitPerMinute: 2 });
    try {
      const call = () => limited.app.inject({ url: `/api/early_access_features/?token=${limited.token}` });
      expect((await call()).statusCode).toBe(200);
      expect((await call()).statusCode).toBe(200);
      const res = await call();
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ type: 'throttled_error', code: 'throttled' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
