import { hash } from 'node:crypto';

/** PostHog's divisor 0xfffffffffffffff, which as a double is exactly 2^60 (as in its SDKs and server). */
const LONG_SCALE = 2 ** 60;
const TWO_POW_28 = 0x10000000;

/** Value of the lowercase hex digit at `i`. */
const digit = (hex: string, i: number): number => {
  const c = hex.charCodeAt(i);
  return c < 58 ? c - 48 : c - 87;
};

/** First 15 hex digits (60 bits) of SHA-1(input), scaled to [0, 1]. */
function scaledSha1(input: string): number {
  const hex = hash('sha1', input, 'hex'); // hex output is cheaper than a Buffer here
  let high = 0; // first 32 bits
  let low = 0; // next 28 bits
  for (let i = 0; i < 8; i++) high = high * 16 + digit(hex, i);
  for (let i = 8; i < 15; i++) low = low * 16 + digit(hex, i);
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
