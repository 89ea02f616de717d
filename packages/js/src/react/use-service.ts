import { useContext, service } from './externals'
import type { Service } from 'service-js'
import { ClientContext } from './client-context'
import { StoreContext } from './context'

/**
 * The client, or `undefined` before it is initialized (the first render with `apiKey`, and server
 * rendering): guard calls with `?.`.
 * @example const client = useService(); client?.capture('clicked_buy')
 */
export function useService(): Service | undefined {
  const fromProvider = useContext(ClientContext)
  const ctx = useContext(StoreContext)
  return ctx ? fromProvider : service.__loaded ? service : undefined
}
