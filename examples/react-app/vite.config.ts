import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const appRoot = dirname(fileURLToPath(import.meta.url))

// Only variables starting with APP_PUBLIC_ reach the browser code (import.meta.env.APP_PUBLIC_*).
export default defineConfig({
  plugins: [react()],
  envPrefix: 'APP_PUBLIC_',
  build: {
    // Source maps for error tracking. `hidden` writes the .map files (for `service sourcemaps upload`) without the
    // `//# sourceMappingURL` comment: browsers never fetch them, and the original code is not published as long as
    // the .map files are not deployed.
    sourcemap: 'hidden',
    rollupOptions: {
      output: {
        // Sources named from the app's root (`src/BrokenCart.tsx`), wherever the build is written: stack traces read
        // like the repository.
        sourcemapPathTransform: (source, mapPath) => relative(appRoot, resolve(dirname(mapPath), source)),
      },
    },
  },
})
