/** Result of a JSON request: the parsed body, or why there is none. */
export interface JsonResult {
  json?: any // eslint-disable-line @typescript-eslint/no-explicit-any -- server JSON, validated by the caller
  /** `timeout`, `connection_error` or `api_error_<status>` */
  error?: string
}

/** fetch + JSON with a hard timeout (AbortController); never rejects. */
export async function fetchJson(url: string, init: RequestInit, timeoutMs: number): Promise<JsonResult> {
  const ctl = new AbortController()
  const timer = setTimeout(() => ctl.abort(), timeoutMs)
  try {
    const res = await fetch(url, { ...init, signal: ctl.signal })
    return res.ok ? { json: await res.json() } : { error: 'api_error_' + res.status }
  } catch {
    return { error: ctl.signal.aborted ? 'timeout' : 'connection_error' }
  } finally {
    clearTimeout(timer)
  }
}

/** gzip with the browser's CompressionStream; undefined where it is missing or fails. */
export async function gzip(text: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  try {
    const cs = new CompressionStream('gzip')
    const w = cs.writable.getWriter()
    w.write(new TextEncoder().encode(text))
    w.close()
    return new Uint8Array(await new Response(cs.readable).arrayBuffer())
  } catch {
    return undefined
  }
}
