// What the README lists is what the service has: every webhook kind and every object a scope can name (a kind or a
// scope added to the code and not to the README is one a user never hears of).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCOPE_OBJECTS } from '../src/http/scopes';
import { WEBHOOK_KINDS } from '../src/modules';

const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');

/** The names in backticks of the README's paragraph that starts with `start`, up to its first empty line. */
function namesIn(start: string): string[] {
  const from = readme.indexOf(start);
  expect(from, start).toBeGreaterThanOrEqual(0);
  const paragraph = readme.slice(from).split('\n\n')[0]!;
  return [...paragraph.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

describe('the README', () => {
  it('names every webhook kind, and no other', () => {
    const named = namesIn("A project's webhooks").filter((name) => /^[a-z_]+\.[a-z_]+$/.test(name));
    expect([...new Set(named)].sort()).toEqual([...WEBHOOK_KINDS].sort());
  });

  it('names every object a scope can name, and no other', () => {
    const named = namesIn('Scopes are').filter((name) => /^[a-z_]+$/.test(name));
    expect([...new Set(named)].sort()).toEqual([...SCOPE_OBJECTS].sort());
  });
});
