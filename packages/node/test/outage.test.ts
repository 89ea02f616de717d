import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlagEvaluationError, Service } from '../src/index';
import { startService, type RunningService } from './service';

// These tests stop the service's process and start it again, in this order.
let service: RunningService;
beforeAll(async () => {
  service = await startService();
  await service.createFlag({ key: 'everyone', filters: { groups: [{ rollout_percentage: 100 }] } });
  await service.createFlag({ key: 'pro-only', filters: { groups: [{ properties: [{ key: 'plan', type: 'person', value: 'pro' }] }] } });
});
afterAll(() => service?.close());

const quiet = (c: Service) => {
  const errors: Error[] = [];
  c.on('error', (e) => errors.push(e));
  return errors;
};

describe('while the service is down', () => {
  it('local evaluation keeps answering from loaded definitions; what it cannot decide throws', async () => {
    const client = new Service(service.token, { host: service.url, personalApiKey: service.key });
    const errors = quiet(client);
    await client.reloadFeatureFlags();
    await service.stop();
    expect(await client.isFeatureEnabled('everyone', 'down-1')).toBe(true);
    expect(await client.isFeatureEnabled('pro-only', 'down-1', { personProperties: { plan: 'free' } })).toBe(false);
    // No plan given: only the service could know it.
    await expect(client.isFeatureEnabled('pro-only', 'down-1')).rejects.toMatchObject({ name: 'FlagEvaluationError', reason: 'connection_error' });
    // getAllFlags returns what it could decide and reports the failed request.
    expect(await client.getAllFlags('down-1')).toEqual({ everyone: true });
    expect(errors.some((e) => e instanceof FlagEvaluationError && e.reason === 'connection_error')).toBe(true);
    await client.reloadFeatureFlags(); // a failed poll keeps what is loaded
    expect(await client.isFeatureEnabled('everyone', 'down-1', { onlyEvaluateLocally: true })).toBe(true);
    await client.shutdown(100);
  });

  it('isFeatureEnabled throws FlagEvaluationError when no definitions are loaded', async () => {
    for (const options of [{ personalApiKey: service.key }, {}]) {
      const client = new Service(service.token, { host: service.url, ...options });
      quiet(client);
      const error = await client.isFeatureEnabled('everyone', 'down-2').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FlagEvaluationError);
      expect(error).toMatchObject({ reason: 'connection_error' });
      await expect(client.getFeatureFlag('everyone', 'down-2')).rejects.toBeInstanceOf(FlagEvaluationError);
      await expect(client.getAllFlags('down-2')).rejects.toMatchObject({ reason: 'connection_error' });
      await expect(client.isFeatureEnabled('everyone', 'down-2', { onlyEvaluateLocally: true })).rejects.toMatchObject({ reason: 'not_loaded' });
      await client.shutdown(100);
    }
  });

  it('a service that does not answer gives reason timeout', async () => {
    const sockets: net.Socket[] = [];
    const blackHole = net.createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
    await new Promise((resolve) => blackHole.once('listening', resolve));
    const client = new Service(service.token, { host: `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`, featureFlagsRequestTimeout: 200 });
    await expect(client.isFeatureEnabled('everyone', 'down-3')).rejects.toMatchObject({ reason: 'timeout' });
    await client.shutdown(100);
    for (const s of sockets) s.destroy();
    blackHole.close();
  });

  it('captured events are kept and sent once the service is back; flush and shutdown never reject', async () => {
    const client = new Service(service.token, { host: service.url, flushAt: 10, fetchRetryCount: 1, fetchRetryDelay: 50 });
    const errors = quiet(client);
    for (let i = 0; i < 50; i++) client.capture({ distinctId: 'outage-1', event: 'during-outage', properties: { i } });
    await expect(client.flush()).resolves.toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.message).toMatch(/events kept for the next flush/);
    const restart = new Promise((r) => setTimeout(r, 300)).then(() => service.start());
    await client.shutdown(15_000);
    await restart;
    const page = await service.waitForEvents({ event: 'during-outage', distinct_id: 'outage-1' }, 50);
    expect(page.count).toBe(50);
    expect(new Set(page.results.map((e) => e.properties.i)).size).toBe(50);
  });
});
