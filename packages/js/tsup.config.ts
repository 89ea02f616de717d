import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig, type Options } from 'tsup'

// dist/ is emptied here, once, before any build starts: the builds below run in parallel, and a `clean` of
// one would race with the files the others write.
rmSync(new URL('./dist/', import.meta.url), { recursive: true, force: true })

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }
/** Lazy extensions: each file of src/extensions/ but the loaders (load*.ts). */
const lazy = readdirSync(new URL('./src/extensions/', import.meta.url))
  .filter((f) => f.endsWith('.ts') && !f.startsWith('load'))
  .map((f) => f.replace(/\.ts$/, ''))

/**
 * The script-tag builds: minified by esbuild, then by terser (some 2.5 % smaller gzipped), and private
 * members (`_name`, never `__loaded`) renamed, which nothing outside the class reaches (extensions use the
 * public surface only).
 */
const script: Options = {
  format: ['iife'],
  minify: 'terser',
  // `unsafe_arrows`: anonymous functions that do not use `this` become arrows; none of ours is a constructor.
  terserOptions: { ecma: 2020, compress: { passes: 2, hoist_funs: true, unsafe_arrows: true } },
  target: 'es2020',
  platform: 'browser',
  esbuildOptions(options) {
    options.minify = true
    options.mangleProps = /^_[a-z]/
  },
}

export default defineConfig([
  {
    // `service-js` and `service-js/react`. The React entry imports the client from 'service-js' (kept
    // external, then pointed at ./index.js / ./index.cjs by scripts/sibling-client.mjs), so both share one
    // module and one default `service` instance.
    // `react-errors` is no public entry: it makes the error boundary (and the React context it shares) a
    // chunk of its own, which react.js imports, so that the React size budget still measures the provider,
    // hooks and ServiceFeature, and the boundary has a budget of its own (test/size.test.ts).
    // `react-surveys` likewise makes the survey hooks a chunk of their own (with a budget of its own);
    // `surveys-renderer` is public: the survey renderer alone, for pages that draw surveys themselves.
    entry: {
      index: 'src/index.ts',
      react: 'src/react/index.ts',
      'react-errors': 'src/react/errors.tsx',
      'react-surveys': 'src/react/surveys.ts',
      'surveys-renderer': 'src/surveys-renderer.ts',
    },
    format: ['esm', 'cjs'],
    // The core's members marked `@internal` (what features reach: `_storage`, `_capture`, ...) stay out of the types.
    dts: { compilerOptions: { stripInternal: true } },
    target: 'es2020',
    platform: 'browser',
    // tsup's default: splitting for ESM, where lazy extensions are chunks of their own (`import()`) that the
    // app's bundler splits off, and code they share with the client a shared chunk (`react.js` still imports
    // only react and service-js); none for CJS, one file with the extensions in it.
    splitting: undefined,
    external: ['react', 'react-dom', 'service-js'],
    // The private flag engine (only its `enrollment` module, which imports nothing) is bundled in: the published
    // package depends on nothing private.
    noExternal: ['@service/flag-engine'],
    // esbuild's browser platform bakes in `process.env.NODE_ENV`; leave it to the app's bundler, so
    // development warnings of service-js/react disappear from the app's production build.
    esbuildOptions(options) {
      options.define = { ...options.define, 'process.env.NODE_ENV': 'process.env.NODE_ENV' }
    },
  },
  {
    ...script,
    entry: { service: 'src/iife.ts' },
    outExtension: () => ({ js: '.iife.js' }),
    // Lazy extensions come from `<api_host>/static/` (extensions/load.script.ts) instead of being bundled.
    esbuildPlugins: [
      {
        name: 'script-chunks',
        setup(build) {
          build.onResolve({ filter: /\/extensions\/load$/ }, (args) => ({ path: resolve(args.resolveDir, `${args.path}.script.ts`) }))
        },
      },
    ],
  },
  // Each lazy extension for the script-tag build: dist/static/<name>.<version>.js, which the service serves at
  // /static/; it puts its module in `window.__service_extensions[name]`.
  ...lazy.map((name): Options => ({
    ...script,
    entry: { [`${name}.${version}`]: `src/extensions/${name}.ts` },
    outDir: 'dist/static',
    outExtension: () => ({ js: '.js' }),
    globalName: `__service_extensions.${name}`,
  })),
])
