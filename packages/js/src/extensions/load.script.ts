import type { ChunkLoader, Client } from '../core/client'
import type { ExtensionOf } from '../core/extension'
import { VERSION } from '../version'

/** Where a chunk of the script-tag build puts its module (see tsup.config.ts). */
declare const window: Window & { __service_extensions?: Record<string, { default?: ExtensionOf<Client> }> }

/**
 * Loads a lazy extension by name in the script-tag build (it replaces `load.ts` there): a script from
 * `<api_host>/static/<name>.<version>.js`, which the service serves from the built package (and answers 404
 * for a name it does not have).
 */
export const loadChunk: ChunkLoader = (name, host) =>
  new Promise((resolve) => {
    const script = document.createElement('script')
    script.src = `${host}/static/${name}.${VERSION}.js`
    script.onload = script.onerror = () => resolve(window.__service_extensions?.[name]?.default)
    document.head.append(script)
  })
