import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The React bindings' tests again, on React 18 instead of the workspace's React 19. React 18 comes with the root
// install as a dev dependency of @service/test-support (in its own node_modules: React 18 and 19 cannot both be
// `react` in one package, and an npm alias would not do, react-dom 18 needs its peer under the name `react`).
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const require = createRequire(import.meta.url)
const testSupport = createRequire(require.resolve('@service/test-support'))
/** The folder of React 18's `react` or `react-dom`. */
const react18 = (name: string) => dirname(testSupport.resolve(`${name}/package.json`))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^service-js$/, replacement: here('../src/index.ts') },
      { find: /^react$/, replacement: `${react18('react')}/index.js` },
      { find: /^react\/(.*)$/, replacement: `${react18('react')}/$1` },
      { find: /^react-dom$/, replacement: `${react18('react-dom')}/index.js` },
      { find: /^react-dom\/(.*)$/, replacement: `${react18('react-dom')}/$1` },
      // Testing Library's ES module build, so its own imports of react and react-dom take the aliases above.
      { find: /^@testing-library\/react$/, replacement: require.resolve('@testing-library/react').replace(/index\.js$/, '@testing-library/react.esm.js') },
    ],
  },
  test: {
    root: here('..'),
    include: ['test/react/**/*.test.tsx', 'react18/*.test.ts'],
    environment: 'happy-dom',
    // Testing Library goes through Vite too, so its `react` is React 18 as well (one React in the page).
    server: { deps: { inline: [/@testing-library\/react/] } },
  },
})
