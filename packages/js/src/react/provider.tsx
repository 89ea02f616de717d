import { useEffect, useMemo, useState, bootstrapSnapshot, service } from './externals'
import type { ReactElement, ReactNode } from 'react'
import type { Service, ServiceOptions } from 'service-js'
import { ClientContext } from './client-context'
import { StoreContext, warn, type Ctx } from './context'
import { storeOf } from './store'

/** Props of `ServiceProvider`: an initialized `client`, or an `apiKey` (project token) and `options` for `init`. */
export type ServiceProviderProps = { children?: ReactNode } & (
  { client: Service; apiKey?: never; options?: never } | { apiKey: string; options?: ServiceOptions; client?: never }
)

/**
 * Gives hooks and `ServiceFeature` a client. With `apiKey`, it initializes the default `service`
 * instance with `init(apiKey, options)` once, in an effect (never while rendering on the server; safe
 * under StrictMode); until then hooks serve `options.bootstrap`. With `client`, it uses that instance.
 * @example
 * <ServiceProvider apiKey={import.meta.env.APP_PUBLIC_SERVICE_KEY} options={{ api_host: import.meta.env.APP_PUBLIC_SERVICE_HOST }}>
 *   <App />
 * </ServiceProvider>
 */
export function ServiceProvider(props: ServiceProviderProps): ReactElement {
  const { apiKey, options } = props
  const client = props.client ?? service
  // The bootstrap of the first render only: a server render and the hydration render agree on it.
  const [boot] = useState(() => (props.client ? undefined : bootstrapSnapshot(options?.bootstrap)))
  const ctx = useMemo<Ctx>(() => ({ client, store: storeOf(client, boot) }), [client, boot])
  const [ready, setReady] = useState(client.__loaded)
  useEffect(() => {
    if (props.client) {
      if (apiKey !== undefined || options !== undefined)
        warn('`client` and `apiKey`/`options` were both given: `client` is used, `apiKey` and `options` are ignored.')
    } else {
      if (!apiKey) warn('no `client` and no `apiKey`: using the default `service` instance, which you must `init` yourself.')
      // Once (StrictMode runs this effect twice; a client initialized elsewhere stays as it is).
      // Later changes of `apiKey` or `options` are not applied.
      else if (!client.__loaded) client.init(apiKey, options)
    }
    setReady(client.__loaded)
  }, [client])
  return (
    <StoreContext.Provider value={ctx}>
      <ClientContext.Provider value={ready ? client : undefined}>{props.children}</ClientContext.Provider>
    </StoreContext.Provider>
  )
}
