// A named import: bundling inlines the version alone, read from package.json at build time.
import { version } from '../package.json'

/** Version of service-js, sent as `$lib_version`. */
export const VERSION: string = version
