import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import type { Bootstrap } from 'service-js'
import { ServiceProvider } from 'service-js/react'
import { App } from './App'
import './style.css'

/**
 * Bootstrapped flags, shown from the first paint (before `/flags` answers): from
 * `window.__SERVICE_BOOTSTRAP__` (a server rendering the page would write it), or from
 * `?bootstrap=<JSON>` in the address, e.g. `?bootstrap={"featureFlags":{"new-banner":true}}`.
 */
function readBootstrap(): Bootstrap | undefined {
  const fromQuery = new URLSearchParams(location.search).get('bootstrap')
  try {
    return fromQuery ? (JSON.parse(fromQuery) as Bootstrap) : window.__SERVICE_BOOTSTRAP__
  } catch {
    console.warn('?bootstrap= is not JSON; ignored')
    return window.__SERVICE_BOOTSTRAP__
  }
}

const apiKey = import.meta.env.APP_PUBLIC_SERVICE_KEY ?? ''
const options = {
  api_host: import.meta.env.APP_PUBLIC_SERVICE_HOST,
  bootstrap: readBootstrap(),
  debug: new URLSearchParams(location.search).has('debug'),
  // Sent as `$release` with exceptions: the service maps their stack traces with the source maps uploaded for this build.
  release: import.meta.env.APP_PUBLIC_RELEASE,
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ServiceProvider apiKey={apiKey} options={options}>
      <App configured={!!apiKey} />
    </ServiceProvider>
  </StrictMode>,
)
