// A named import: bundling inlines the version alone, read from package.json at build time.
import { version } from '../package.json';

export const LIB = 'service-node';
export const VERSION: string = version;
export const USER_AGENT = `${LIB}/${VERSION}`;

/** A request that got no HTTP answer. */
export class NetworkError extends Error {
  constructor(
    readonly kind: 'timeout' | 'connection_error',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** fetch with a time limit covering the whole body; network failures become a {@link NetworkError}. */
export async function request(url: string, init: RequestInit, timeoutMs: number): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (error) {
    const timeout = (error as Error).name === 'TimeoutError';
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    const what = `${init.method ?? 'GET'} ${url.replace(/\?.*/, '')}`;
    throw new NetworkError(
      timeout ? 'timeout' : 'connection_error',
      `${what}: ${timeout ? `no answer within ${timeoutMs} ms` : `${(error as Error).message}${code ? ` (${code})` : ''}`}`,
      {
        cause: error,
      },
    );
  }
}

/** Resolves after `ms` (keeps the process alive meanwhile, so an awaited flush is not cut short). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
