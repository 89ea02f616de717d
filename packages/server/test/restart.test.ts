import { describe, expect, it } from 'vitest';
import { startService, testStorage } from './helpers';

describe('restart', () => {
  it('keeps projects, keys, flags and features across a restart on the same database', async () => {
    const storage = testStorage();
    const first = await startService({}, storage);
    const created = await first.app.inject({
      method: 'POST',
      url: `/api/projects/${first.projectId}/early_access_feature/`,
      headers: first.headers,
      payload: { name: 'Durable', stage: 'beta' },
    });
    expect(created.statusCode).toBe(201);
    await first.close({ keepData: true });

    const second = await startService({}, storage);
    try {
      const res = await second.app.inject({ url: `/api/projects/${first.projectId}/early_access_feature/${created.json().id}`, headers: first.headers });
      expect(res.statusCode).toBe(200);
      const { feature_flag_id: _, ...expected } = created.json();
      expect(res.json()).toEqual(expected);
    } finally {
      await second.close();
    }
  });
});
