import * as crypto from 'node:crypto';

/** PostHog's divisor 0xfffffffffffffff, which as a double is exactly 2^60 (as in its SDKs and server). */
const LONG_SCALE = 2 ** 60;
const TWO_POW_28 = 0x10000000;

/**
 * SHA-1 digest as a 20-character string, one byte per character: `crypto.hash` (Node ≥ 20.12, one call without a
 * Hash object), else `createHash` (service-node supports older Node 20 releases). Latin-1 output (`binary`) is the cheapest
 * form to read the first bytes from: no Buffer to allocate, half the characters of hex.
 */
const sha1: (input: string) => string =
  typeof crypto.hash === 'function' ? (input) => crypto.hash('sha1', input, 'binary') : (input) => crypto.createHash('sha1').update(input).digest('binary');

/** First 15 hex digits (60 bits) of SHA-1(input), scaled to [0, 1]. */
export function scaledSha1(input: string): number {
  const d = sha1(input);
  const high = d.charCodeAt(0) * 0x1000000 + d.charCodeAt(1) * 0x10000 + d.charCodeAt(2) * 0x100 + d.charCodeAt(3); // 32 bits
  const low = d.charCodeAt(4) * 0x100000 + d.charCodeAt(5) * 0x1000 + d.charCodeAt(6) * 0x10 + (d.charCodeAt(7) >> 4); // next 28
  // One correctly rounded addition: the same double as parseInt(hex15, 16) and Rust's u64 → f64.
  return (high * TWO_POW_28 + low) / LONG_SCALE;
}

/** PostHog's bucketing hash: SHA-1 of `<key>.<identifier><salt>`, first 15 hex digits / 0xfffffffffffffff. */
export function hashKey(key: string, identifier: string, salt = ''): number {
  return scaledSha1(`${key}.${identifier}${salt}`);
}

/** Holdout hash: SHA-1 of `holdout-<identifier>` (no flag key), same scaling. */
export function holdoutHash(identifier: string): number {
  return scaledSha1(`holdout-${identifier}`);
}
