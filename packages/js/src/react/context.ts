import { createContext } from 'react'
import type { FlagStore, Service } from 'service-js'

/** What the provider shares with hooks: the client and a store that serves the bootstrap until `init`. */
export interface Ctx {
  client: Service
  store: FlagStore
}

/** The provider's context (null without a provider). */
export const StoreContext = createContext<Ctx | null>(null)

declare const process: { env: { NODE_ENV?: string } }

/** Warns outside production builds (bundlers replace `process.env.NODE_ENV`; without one, it warns). */
export function warn(message: string): void {
  let dev = true
  try {
    // eslint-disable-next-line no-restricted-syntax -- the bundler's build mode, not configuration
    dev = process.env.NODE_ENV !== 'production'
  } catch {
    // no bundler and no `process`: development
  }
  if (dev) console.warn('[service-js/react] ' + message)
}
