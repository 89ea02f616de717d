import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost: N = 2^15, r = 8, p = 1 (32 MiB, about 75 ms on one core of the machines we measured). */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;

const scrypt = (password: string, salt: Buffer, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem: 256 * options.N! * options.r! }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url: the parameters travel with the hash, so the cost can grow later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` is the one `stored` was made from; compared in constant time. A malformed `stored` is false. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;
/** A hash of no one's password, made once (the first login waits for it, whether its email has an account or not). */
export const dummyHash = () => (dummy ??= hashPassword(randomBytes(16).toString('base64url')));
