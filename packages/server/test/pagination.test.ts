import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
let base: string;
const TOTAL = 7;
const ids: string[] = [];

beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/early_access_feature/`;
  for (let i = 0; i < TOTAL; i++) {
    const res = await s.app.inject({ method: 'POST', url: base, headers: s.headers, payload: { name: `Paged ${i}`, stage: 'beta' } });
    ids.push(res.json().id);
  }
});
afterAll(() => s.close());

const list = async (query: string) => {
  const res = await s.app.inject({ url: `${base}${query}`, headers: { ...s.headers, host: 'service.test:8000' } });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('pagination', () => {
  it('returns everything in creation order by default, with no links', async () => {
    const page = await list('');
    expect(page).toMatchObject({ count: TOTAL, next: null, previous: null });
    expect(page.results.map((f: { id: string }) => f.id)).toEqual(ids);
  });

  it('pages with limit 1, linking absolutely to the next page', async () => {
    const page = await list('?limit=1');
    expect(page.results).toHaveLength(1);
    expect(page.results[0].id).toBe(ids[0]);
    expect(page.next).toBe('http://service.test:8000/api/projects/1/early_access_feature/?limit=1&offset=1'.replace('/1/', `/${s.projectId}/`));
    expect(page.previous).toBeNull();
  });

  it('links to the previous page, dropping offset when it would be zero', async () => {
    expect((await list('?limit=2&offset=1')).previous).toBe(`http://service.test:8000/api/projects/${s.projectId}/early_access_feature/?limit=2`);
    expect((await list('?limit=2&offset=5')).previous).toBe(`http://service.test:8000/api/projects/${s.projectId}/early_access_feature/?limit=2&offset=3`);
  });

  it('returns an empty page past the end, still linking back', async () => {
    const page = await list('?offset=100');
    expect(page).toMatchObject({ count: TOTAL, next: null, results: [] });
    expect(page.previous).toContain('limit=100');
  });

  it.each(['?limit=0', '?limit=-3', '?limit=abc', '?limit=1.5', '?offset=-1', '?offset=abc', '?limit=&offset='])(
    'falls back to the defaults for %s',
    async (query) => {
      const page = await list(query);
      expect(page.results).toHaveLength(TOTAL);
      expect(page.results[0].id).toBe(ids[0]);
    },
  );

  it('caps limit at 1000', async () => {
    const page = await list('?limit=5000&offset=6');
    expect(page.results).toHaveLength(1);
    expect(page.previous).toContain('limit=1000');
  });

  it.each([1, 2, 3, 7])('visits every feature exactly once following next links with limit %i, and back with previous', async (limit) => {
    const seen: string[] = [];
    let url: string | null = `${base}?limit=${limit}`;
    let last: { previous: string | null } | undefined;
    while (url) {
      const page = await list(url.replace(/^http:\/\/service\.test:8000/, '').slice(base.length));
      seen.push(...page.results.map((f: { id: string }) => f.id));
      last = page;
      url = page.next;
    }
    expect(seen).toEqual(ids);
    const back: string[] = [];
    let prev = last!.previous;
    while (prev) {
      const page = await list(prev.replace(/^http:\/\/service\.test:8000/, '').slice(base.length));
      back.unshift(...page.results.map((f: { id: string }) => f.id));
      prev = page.previous;
    }
    expect([...back, ...seen.slice(back.length)]).toEqual(ids);
  });
});
