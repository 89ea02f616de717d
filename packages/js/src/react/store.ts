import { bootstrapSnapshot } from './externals'
import type { FlagStore, Service } from 'service-js'

/**
 * The client's flag store, except that before `init` (first render, server render) it serves the
 * bootstrap of the provider's options, so bootstrapped flags are there from the very first render.
 */
export function storeOf(client: Service, boot = bootstrapSnapshot(client.config.bootstrap)): FlagStore {
  const s = client.flagStore
  return {
    subscribe: (listener) => s.subscribe(listener),
    getSnapshot: () => (client.__loaded ? s.getSnapshot() : boot),
    getServerSnapshot: () => (client.__loaded ? s.getServerSnapshot() : boot),
  }
}
