/// <reference types="vite/client" />
import type { Bootstrap } from 'service-js'

declare global {
  interface ImportMetaEnv {
    /** The project token (public), printed by `npm start`. */
    readonly APP_PUBLIC_SERVICE_KEY?: string
    /** Where the service runs, e.g. http://127.0.0.1:8000. */
    readonly APP_PUBLIC_SERVICE_HOST?: string
    /** This build's release id (a version or a commit), the one its source maps are uploaded for. */
    readonly APP_PUBLIC_RELEASE?: string
  }
  interface Window {
    /** Flag values computed elsewhere (a server, a test) and written into the page before the app's script. */
    __SERVICE_BOOTSTRAP__?: Bootstrap
  }
}
