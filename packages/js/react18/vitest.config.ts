import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The React bindings' tests again, on React 18 (installed in ./node_modules) instead of the workspace's React 19.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^service-js$/, replacement: here('../src/index.ts') },
      { find: /^react$/, replacement: here('node_modules/react/index.js') },
      { find: /^react\/(.*)$/, replacement: here('node_modules/react/$1') },
      { find: /^react-dom$/, replacement: here('node_modules/react-dom/index.js') },
      { find: /^react-dom\/(.*)$/, replacement: here('node_modules/react-dom/$1') },
      // Testing Library's ES module build, so its own imports of react and react-dom take the aliases above.
      { find: /^@testing-library\/react$/, replacement: createRequire(import.meta.url).resolve('@testing-library/react').replace(/index\.js$/, '@testing-library/react.esm.js') },
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
