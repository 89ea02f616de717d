import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// Issue 15: the official posthog-node's exceptions, sent to the service listening on a port, group into issues.
let s: TestService;
let host: string;
beforeAll(async () => {
  s = await startService();
  host = await s.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => s.close());

class CardDeclinedError extends Error {
  override name = 'CardDeclinedError';
}

function chargeCard(order: number): never {
  throw new CardDeclinedError(`Card declined for order ${order}`);
}

function caught(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

const issues = async () => {
  const res = await s.app.inject({ url: `/api/projects/${s.projectId}/error_tracking/issues/?order_by=occurrences`, headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as { id: string; name: string; description: string; occurrences: number; people: number }[];
};

describe('posthog-node', () => {
  it('captureException: the same error thrown twice is one issue, another error another, with Node frames', async () => {
    const client = new PostHog(s.token, { host, flushAt: 1, flushInterval: 0 });
    client.captureException(
      caught(() => chargeCard(1001)),
      'alice',
    );
    client.captureException(
      caught(() => chargeCard(2002)),
      'bob',
    );
    client.captureException(
      caught(() => JSON.parse('{not json')),
      'alice',
    );
    await client.shutdown();

    const [declined, syntax, ...rest] = await issues();
    expect(rest).toEqual([]);
    expect(declined).toMatchObject({ name: 'CardDeclinedError', occurrences: 2, people: 2 });
    // posthog-node parses stacks asynchronously: either capture may arrive first and name the issue.
    expect(declined!.description).toMatch(/^Card declined for order (1001|2002)$/);
    expect(syntax).toMatchObject({ name: 'SyntaxError', occurrences: 1 });

    const detail = (await s.app.inject({ url: `/api/projects/${s.projectId}/error_tracking/issues/${declined!.id}/`, headers: s.headers })).json();
    const [thrown] = detail.latest_event.properties.$exception_list;
    expect(thrown.type).toBe('CardDeclinedError');
    const frames = thrown.stacktrace.frames as { function: string; filename: string; in_app: boolean; platform: string; context_line?: string }[];
    const top = frames.at(-1)!;
    expect(top).toMatchObject({ function: 'chargeCard', in_app: true, platform: 'node:javascript' });
    expect(top.filename).toContain('error-tracking-posthog-node.test.ts');
    expect(detail.latest_event.properties.$exception_functions).toContain('chargeCard');
    expect(detail.latest_event.properties.$lib).toBe('posthog-node');
  });
});
