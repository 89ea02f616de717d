import { expect } from 'vitest';
import type { TestService } from './helpers';

/** The origin of requests made with app.inject (its Host is localhost:80). */
export const ORIGIN = 'http://localhost';
export const PASSWORD = 'correct horse battery';

type Injected = Awaited<ReturnType<TestService['app']['inject']>>;

/** The session cookie a response sets (undefined when it sets none), with its attributes. */
export function sessionCookie(res: Injected) {
  return (res.cookies as { name: string; value: string; [attr: string]: unknown }[]).find((c) => c.name === 'service_session');
}

/** A logged-in browser: its cookie, its CSRF token, and the headers a page of the service sends. */
export interface Browser {
  id: number;
  cookie: string;
  csrf: string;
  /** Cookie only (what a GET sends). */
  read: Record<string, string>;
  /** Cookie, CSRF token and same-origin Origin (what the web app sends on POST, PATCH, DELETE). */
  write: Record<string, string>;
}

export function browserOf(res: Injected): Browser {
  expect([200, 201], res.body).toContain(res.statusCode);
  const cookie = sessionCookie(res)!.value;
  const { id, csrf_token } = res.json() as { id: number; csrf_token: string };
  return {
    id,
    cookie,
    csrf: csrf_token,
    read: { cookie: `service_session=${cookie}` },
    write: { cookie: `service_session=${cookie}`, 'x-csrf-token': csrf_token, origin: ORIGIN },
  };
}

let seq = 0;
/** A unique email address. */
export const email = (name = 'user') => `${name}-${++seq}-${Date.now()}@example.com`;

/** Logs in (as the web app does) and returns the browser. */
export async function login(s: TestService, address: string, password = PASSWORD, remoteAddress?: string): Promise<Browser> {
  const res = await s.app.inject({ method: 'POST', url: '/api/login', payload: { email: address, password }, ...(remoteAddress ? { remoteAddress } : {}) });
  return browserOf(res);
}

/** Makes a user with this role (as the command line does) and logs them in. */
export async function userWith(s: TestService, role: 'viewer' | 'member' | 'admin' | 'owner'): Promise<Browser & { email: string }> {
  const address = email(role);
  await s.services.users.create({ email: address, password: PASSWORD, role });
  return { ...(await login(s, address)), email: address };
}
