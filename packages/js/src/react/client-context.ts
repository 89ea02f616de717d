import { createContext } from './externals'
import type { Service } from 'service-js'

/** The provider's client once it is initialized (`useService`); undefined before. */
export const ClientContext = createContext<Service | undefined>(undefined)
