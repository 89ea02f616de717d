import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const root = join(import.meta.dirname, '..', '..')

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON from the service */

/** A started service with its project and a `*` personal API key, and helpers over its REST API. */
export interface Service {
  url: string
  projectId: number
  token: string
  key: string
  output: () => string
  /** `fetch` on the REST API with the personal key; throws on a non-2xx answer. */
  api(path: string, init?: { method?: string; body?: unknown }): Promise<any>
  /** Creates a feature flag and returns it. */
  flag(key: string, filters: object, active?: boolean): Promise<{ id: number; key: string }>
  /** `POST /flags/?v=2` as an SDK would, with the project token. */
  flags(body: object): Promise<any>
  /** Stored events (newest first) of a name, optionally of one distinct id. */
  events(event: string, distinctId?: string): Promise<any[]>
  /** Polls `events` until `until` is true of the list (default: not empty); throws after `timeoutMs`. */
  waitForEvents(event: string, distinctId: string, until?: (events: any[]) => boolean, timeoutMs?: number): Promise<any[]>
  stop(): Promise<void>
}

/**
 * Starts `node packages/server/bin/service.js start` on a temporary DATA_DIR and a free port, and
 * reads the project id, token and personal API key that the first start prints.
 */
export async function startService(): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'))
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    API_RATE_LIMIT_PER_MINUTE: '100000',
  }
  delete env.DATABASE_URL
  delete env.DATABASE_SCHEMA
  const child: ChildProcess = spawn(process.execPath, [join(root, 'packages/server/bin/service.js'), 'start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))

  const stop = async () => {
    if (child.exitCode == null && child.signalCode == null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    }
    rmSync(dataDir, { recursive: true, force: true })
  }

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service did not start within 30 s:\n${out}`)), 30_000)
      const check = () => {
        if (/Service listening on/.test(out)) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout!.on('data', check)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`the service exited (${code}):\n${out}`))
      })
    })
  } catch (e) {
    await stop()
    throw e
  }
  const field = (name: string) => {
    const m = new RegExp(`^\\s*${name}:\\s*(\\S+)\\s*$`, 'm').exec(out)
    if (!m) throw new Error(`"${name}:" not in the service's output:\n${out}`)
    return m[1]
  }
  const url = `http://127.0.0.1:${port}`
  const projectId = Number(field('project id'))
  const token = field('project token')
  const key = field('personal API key')

  const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(url + path, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${key}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
      signal: AbortSignal.timeout(10_000),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  const events = async (event: string, distinctId?: string) => {
    const q = new URLSearchParams({ event, limit: '1000' })
    if (distinctId) q.set('distinct_id', distinctId)
    return (await api(`/api/projects/${projectId}/events/?${q}`)).results as any[]
  }
  return {
    url,
    projectId,
    token,
    key,
    output: () => out,
    api,
    flag: (flagKey, filters, active = true) => api(`/api/projects/${projectId}/feature_flags/`, { method: 'POST', body: { key: flagKey, name: flagKey, filters, active } }),
    flags: async (body) => {
      const res = await fetch(`${url}/flags/?v=2`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, ...body }),
        signal: AbortSignal.timeout(10_000),
      })
      if (!res.ok) throw new Error(`POST /flags/?v=2: ${res.status} ${await res.text()}`)
      return res.json()
    },
    events,
    async waitForEvents(event, distinctId, until = (e) => e.length > 0, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs
      let last: any[] = []
      for (;;) {
        try {
          last = await events(event, distinctId)
          if (until(last)) return last
        } catch (e) {
          if (Date.now() > end) throw e
        }
        if (Date.now() > end) throw new Error(`no matching ${event} events for ${distinctId} within ${timeoutMs} ms; last: ${JSON.stringify(last).slice(0, 2000)}`)
        await new Promise((r) => setTimeout(r, 250))
      }
    },
    stop,
  }
}
