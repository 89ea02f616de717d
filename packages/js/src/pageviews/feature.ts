import type { Props } from '../core/properties'
import type { Client } from '../core/client'
import type { Feature } from '../core/feature'
import { uuidv7 } from '../core/identity'

let listeners: Set<() => void> | undefined

/**
 * Calls `cb` after every pushState/replaceState and on popstate. History is patched once per page,
 * whatever the number of clients.
 */
export function onHistoryChange(cb: () => void): void {
  if (!listeners) {
    const ls = (listeners = new Set())
    const fire = () => ls.forEach((f) => f())
    for (const m of ['pushState', 'replaceState'] as const) {
      const orig = history[m]
      history[m] = function (this: History, ...args: Parameters<History['pushState']>) {
        const r = orig.apply(this, args)
        fire()
        return r
      }
    }
    addEventListener('popstate', fire)
  }
  listeners.add(cb)
}

/**
 * `$pageview` on start (option `capture_pageview`) and, with `'history_change'`, when the path changes;
 * `$pageleave` on `unload` (option `capture_pageleave`). Every event carries the current `$pageview_id`;
 * the next pageview and the pageleave say which page came before and how long it was shown.
 */
export function pageviews(client: Client): Feature {
  return {
    start() {
      const c = client.config
      const leave = c.capture_pageleave === 'if_capture_pageview' ? !!c.capture_pageview : c.capture_pageleave
      let page: { id: string; path: string; t: number } | undefined
      const prev = (): Props =>
        page ? { $prev_pageview_id: page.id, $prev_pageview_pathname: page.path, $prev_pageview_duration: (Date.now() - page.t) / 1000 } : {}
      const pageview = () => {
        const id = uuidv7()
        client.capture('$pageview', { title: document.title, $pageview_id: id, ...prev() }, { uuid: id })
        page = { id, path: location.pathname, t: Date.now() }
      }
      client.on('beforeCapture', (props) => void (props.$pageview_id = page?.id))
      client.on('unload', () => void (leave && client.capture('$pageleave', prev())))
      if (c.capture_pageview === 'history_change') onHistoryChange(() => location.pathname !== page?.path && pageview())
      if (c.capture_pageview) pageview()
    },
  }
}
