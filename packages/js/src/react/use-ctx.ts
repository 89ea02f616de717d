import { useContext, service } from './externals'
import { StoreContext, type Ctx } from './context'
import { storeOf } from './store'

let fallback: Ctx | undefined
/** The provider's context, or (for hooks used without a provider) the default `service` instance. */
export const useCtx = (): Ctx => useContext(StoreContext) ?? (fallback ??= { client: service, store: storeOf(service) })
