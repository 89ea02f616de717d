import { randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ValidationError } from '../errors';
import common from './common-passwords.json';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

/** The 1,000 most common passwords long enough to pass the length rule, in lower case (their source is in the file). */
const COMMON_PASSWORDS = new Set(common.passwords);

/**
 * Throws a 400 for a password no account may have: blank (whitespace only), shorter than MIN_PASSWORD_LENGTH, longer
 * than MAX_PASSWORD_LENGTH, or one of the most common passwords whatever its case (the first guesses of any attacker).
 */
export function checkPassword(password: string) {
  if (!password.trim()) throw new ValidationError('The password may not be blank.', 'password', 'blank');
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ValidationError(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`, 'password', 'password_too_short');
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new ValidationError(`The password must have at most ${MAX_PASSWORD_LENGTH} characters.`, 'password', 'password_too_long');
  }
  if (COMMON_PASSWORDS.has(password.normalize('NFC').trim().toLowerCase())) {
    throw new ValidationError('This password is one of the most common ones, which are guessed first: choose another.', 'password', 'password_too_common');
  }
}

/** Letters and digits without the ones read as one another (I, l, O, 0, 1): a generated password is copied by people. */
const GENERATED_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A strong password for someone to copy: 24 characters drawn uniformly from GENERATED_ALPHABET (about 139 bits). */
export function generatePassword(): string {
  return Array.from({ length: 24 }, () => GENERATED_ALPHABET[randomInt(GENERATED_ALPHABET.length)]).join('');
}

/** scrypt's cost: N = 2^15, r = 8, p = 1 (32 MiB and tens of milliseconds of a core a hash: dear for a guesser, cheap for a login). */
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
