// Issue 10, item 5: JSON.parse of a 22 MB batch body held the event loop for up to 650 ms. Large SDK bodies are now
// parsed in slices (src/http/sliced-json.ts), which must give exactly what JSON.parse gives, and refuse what it refuses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBytes, parseJsonInSlices } from '../src/http/sliced-json';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);

/** What JSON.parse makes of `text` (as UTF-8 bytes), or 'invalid'. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(Buffer.from(text).toString('utf8'));
  } catch {
    return 'invalid';
  }
}
const sliced = (text: string) =>
  parseJsonInSlices(Buffer.from(text)).catch((error: unknown) => (error instanceof SyntaxError ? 'invalid' : Promise.reject(error)));
/** Same value, same key order, same prototypes (a `__proto__` key stays an own property). */
function expectSame(actual: unknown, expected: unknown) {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

/** An event with the awkward parts: `__proto__` keys, escapes, surrogates, raw non-ASCII, duplicate keys. */
const event = (i: number) =>
  `{"event":"e${i}","distinct_id":"u\\u00e9-${i}","__proto__":{"polluted":true},"properties":{"__proto__":[${i}],"s":"\\ud83d\\ude00 ü \\"x\\" \\\\ ,]}","n":-1.5e3,"deep":[[{"a":null}]],"n":${i}}}`;
const big = (count: number) =>
  `{"api_key" : "phc_x",\n "batch": [ ${Array.from({ length: count }, (_, i) => event(i)).join(' ,\n')} ],"__proto__":{"x":1},"sent_at":"now"}`;

describe('parseJsonInSlices', () => {
  it('gives what JSON.parse gives for a multi-MB batch body, __proto__ keys as own properties', async () => {
    const text = big(12_000); // some 3.5 MB: many slices
    const value = (await sliced(text)) as Record<string, unknown>;
    expectSame(value, parsed(text));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['api_key', 'batch', '__proto__', 'sent_at']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const events = `[${Array.from({ length: 12_000 }, (_, i) => event(i)).join(',')}]`; // posthog-js sends a bare array
    expectSame(await sliced(events), parsed(events));
  });

  it('refuses a multi-MB body wherever it breaks JSON, as JSON.parse does', async () => {
    const text = big(4_000);
    const broken = [
      text.replace(' ],"__proto__"', ' ,],"__proto__"'), // trailing comma
      text.replace(' ],"__proto__"', ' },"__proto__"'), // wrong closing bracket
      text.replace(']', ''),
      `${text} x`,
      `${text}}`,
      text.slice(0, -1),
      ...[0.1, 0.3, 0.5, 0.7, 0.9].flatMap((at) => {
        const i = text.indexOf(' ,\n', Math.floor(text.length * at));
        return [`${text.slice(0, i)},${text.slice(i)}`, `${text.slice(0, i)}"${text.slice(i)}`, `${text.slice(0, i)}]${text.slice(i)}`];
      }),
    ];
    // 1 KB elements then a trailing comma: for some count the comma falls where one slice ends
    const kb = `"${'x'.repeat(1022)}"`;
    for (let count = 1; count <= 200; count++) broken.push(`{"batch":[${Array(count).fill(kb).join(',')},]}`);
    for (const input of broken) {
      expect(parsed(input)).toBe('invalid');
      expect(await sliced(input)).toBe('invalid');
    }
  });

  it('gives what JSON.parse gives for any JSON text, and refuses it when JSON.parse does once a character is changed', async () => {
    const texts = fc.oneof(
      fc.json(),
      fc
        .tuple(fc.json(), fc.nat(), fc.constantFrom(',', ']', '}', '[', '{', '"', ':', ' ', '\\', 'x', '\uFEFF', ''), fc.boolean())
        .map(([text, at, char, replace]) => {
          const i = at % (text.length + 1);
          return text.slice(0, i) + char + text.slice(i + (replace ? 1 : 0));
        }),
    );
    await fc.assert(
      fc.asyncProperty(texts, async (text) => expectSame(await sliced(text), parsed(text))),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it('gives what JSON.parse gives where it cuts a compact batch at an element that begins as the first does, and refuses the same', async () => {
    // Batch elements begin alike ({"uuid":…), and the runs between them are cut there without a scan; where objects
    // nested in them begin alike too, a cut may be guessed inside one, whose run then fails to parse and is scanned.
    const element = (i: number, pad: number, nestedKey: string) =>
      JSON.stringify({
        uuid: `u${i}`,
        nested: [
          { [nestedKey]: 'inner', s: '},{"uuid":' },
          { [nestedKey]: 'x'.repeat(pad), deeper: [{ [nestedKey]: i }, { [nestedKey]: [] }] },
        ],
        text: `},{\\"uuid\\": ${'y'.repeat(i % 50)}`,
        ['__proto__']: [i],
      });
    for (const nestedKey of ['uuid', 'name'])
      for (let pad = 0; pad < 1200; pad += 97) {
        const batch = `[${Array.from({ length: 700 }, (_, i) => element(i, (pad * (i + 1)) % 1500, nestedKey)).join(',')}]`;
        expectSame(await sliced(batch), parsed(batch));
        const body = `{"api_key":"phc_x","batch":${batch},"sent_at":"now"}`;
        expectSame(await sliced(body), parsed(body));
        const after = `{"batch":${batch},"extra":[{"uuid":1},{"uuid":2}],"more":[${element(1, pad, nestedKey)},${element(2, pad, nestedKey)}]}`;
        expectSame(await sliced(after), parsed(after)); // a cut found past the batch's end
        const cuts = [body.lastIndexOf('},{"uuid":')];
        for (let cut = body.indexOf('},{"uuid":', 65_536); cut >= 0; cut = body.indexOf('},{"uuid":', cut + 70_000)) cuts.push(cut);
        for (const cut of cuts) {
          const broken = [
            `${body.slice(0, cut)}]${body.slice(cut)}`,
            `${body.slice(0, cut + 1)}${body.slice(cut + 2)}`,
            `${body.slice(0, cut + 2)}"${body.slice(cut + 2)}`,
          ];
          for (const text of broken) {
            expect(parsed(text)).toBe('invalid');
            expect(await sliced(text)).toBe('invalid');
          }
        }
      }
  });

  it('parseJsonBytes gives what JSON.parse gives on either side of the 128 KB past which it slices, and refuses the same', async () => {
    for (const count of [10, 700, 900, 4_000]) {
      const text = big(count); // some 185 bytes an event: 2 KB and 127 KB (parsed whole), 163 KB and 738 KB (in slices)
      expectSame(await parseJsonBytes(Buffer.from(text)), parsed(text));
      const broken = text.replace(' ],"__proto__"', ' ,],"__proto__"');
      await expect((async () => parseJsonBytes(Buffer.from(broken)))()).rejects.toThrow(SyntaxError);
    }
  });
});
