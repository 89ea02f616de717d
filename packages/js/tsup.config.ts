import { defineConfig } from 'tsup'

export default defineConfig([
  {
    // `service-js` and `service-js/react`. The React entry imports the client from 'service-js' (kept
    // external), so both share one module and one default `service` instance.
    entry: { index: 'src/index.ts', react: 'src/react/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'es2020',
    platform: 'browser',
    // Each entry self-contained (no shared chunk file): `react.js` imports only react and service-js.
    splitting: false,
    external: ['react', 'react-dom', 'service-js'],
    // esbuild's browser platform bakes in `process.env.NODE_ENV`; leave it to the app's bundler, so
    // development warnings of service-js/react disappear from the app's production build.
    esbuildOptions(options) {
      options.define = { ...options.define, 'process.env.NODE_ENV': 'process.env.NODE_ENV' }
    },
  },
  {
    entry: { service: 'src/iife.ts' },
    format: ['iife'],
    outExtension: () => ({ js: '.iife.js' }),
    minify: true,
    target: 'es2020',
    platform: 'browser',
  },
])
