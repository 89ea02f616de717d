/** Why a value was left out of a {@link jsonCopy}. */
export type LeftOut = 'circular reference' | 'function' | 'symbol' | 'unreadable';

/**
 * A copy of a value from the host app as the service will receive it, made without throwing: objects
 * become plain objects and arrays (own enumerable properties; `toJSON`, e.g. a Date's, applied), a BigInt
 * becomes its decimal string (as posthog-node sends it), and a circular reference, a function, a symbol or
 * a property that throws when read is left out and reported to `leftOut` with its path. A value that already
 * is plain JSON data (the usual case) is returned as is, without copying.
 *
 * ```ts
 * jsonCopy({ n: 1n, me: circular }, 'properties', warn) // { n: '1', me: { ...without the loop } }
 * ```
 */
export function jsonCopy(value: unknown, path: string, leftOut: (path: string, why: LeftOut) => void): unknown {
  if (isPlainJson(value, MAX_CHECK_DEPTH)) return value;
  const ancestors: object[] = [];
  const copy = (v: unknown, at: string): unknown => {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'function' || typeof v === 'symbol') return void leftOut(at, typeof v === 'function' ? 'function' : 'symbol');
    if (v === null || typeof v !== 'object') return v;
    if (ancestors.includes(v)) return void leftOut(at, 'circular reference');
    ancestors.push(v);
    try {
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return copy((v as { toJSON(): unknown }).toJSON(), at);
      const out: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : {};
      for (const key of Object.keys(v)) {
        let child: unknown;
        try {
          child = (v as Record<string, unknown>)[key];
        } catch {
          leftOut(`${at}.${key}`, 'unreadable');
          continue;
        }
        const c = copy(child, `${at}.${key}`);
        if (c !== undefined || child === undefined) (out as Record<string, unknown>)[key] = c;
      }
      return out;
    } catch {
      return void leftOut(at, 'unreadable'); // a Proxy, or a toJSON that throws
    } finally {
      ancestors.pop();
    }
  };
  return copy(value, path);
}

/** How deep {@link isPlainJson} looks before it leaves the value to the copy (which detects cycles). */
const MAX_CHECK_DEPTH = 8;

/** Whether `v` is primitives, plain objects and arrays only, nested at most `depth` deep: what JSON keeps as is. */
function isPlainJson(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return typeof v !== 'bigint' && typeof v !== 'function' && typeof v !== 'symbol';
  if (depth === 0) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype) return false; // Date (toJSON), class instances, null prototype, Proxy traps
  try {
    for (const key in v) if (!isPlainJson((v as Record<string, unknown>)[key], depth - 1)) return false;
  } catch {
    return false; // a getter that throws: the copy leaves it out
  }
  return true;
}
