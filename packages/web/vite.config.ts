import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The server package serves the build from its web-dist/ folder (packages/server/src/web/routes.ts). */
export const outDir = fileURLToPath(new URL('../server/web-dist', import.meta.url));

/** Writes `<file>.gz` beside each script and style sheet, which the server sends to clients that take gzip. */
function gzipAssets(): Plugin {
  return {
    name: 'gzip-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(file)) continue;
        const full = path.join(options.dir!, file);
        fs.writeFileSync(`${full}.gz`, gzipSync(fs.readFileSync(full), { level: 9 }));
      }
    },
  };
}

/**
 * Mantine's ScrollArea (the scroll container of every Table) imports only `useMergeRefs` from @floating-ui/react, which
 * put the whole package (the positioning of dropdowns and tooltips, ~14 KB gzip) into the chunk of each page with a
 * table: that import is served by a copy of the one function (src/vendor/use-merge-refs.ts).
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const shim = fileURLToPath(new URL('./src/vendor/use-merge-refs.ts', import.meta.url));
  return {
    name: 'scroll-area-without-floating-ui',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@floating-ui/react' && importer && /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/.test(importer))
        return shim;
      return null;
    },
  };
}

/**
 * The survey renderer of service-js, which draws the builder's preview, from its sources: the app builds (and its
 * tests run) without service-js being built first, and the preview is drawn by the very code that draws surveys in
 * people's browsers.
 */
export const alias = { '@flagstation/service-js/surveys-renderer': fileURLToPath(new URL('../js/src/surveys-renderer.ts', import.meta.url)) };

// `npm run dev -w @service/web` serves the app with hot reload and sends API calls to a service on :8000.
const service = process.env.SERVICE_URL ?? 'http://localhost:8000';

export default defineConfig({
  plugins: [scrollAreaWithoutFloatingUi(), react(), gzipAssets()],
  resolve: { alias },
  build: { outDir, emptyOutDir: true, assetsDir: 'assets', chunkSizeWarningLimit: 700 },
  server: { proxy: Object.fromEntries(['/api', '/flags', '/decide'].map((p) => [p, { target: service, changeOrigin: true }])) },
});
