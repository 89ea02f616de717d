import { randomFillSync } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for the 8-4-4-4-12 hex form of a UUID (any version). */
export const isUuid = (value: string) => UUID.test(value);

const pool = Buffer.alloc(16 * 256);
let used = pool.length;

/** A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits, so ids sort by time and index well. */
export function uuidv7(now = Date.now()): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const b = pool.subarray(used, used + 16);
  used += 16;
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
