import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from '../../scripts/vite-precompress';

const root = fileURLToPath(new URL('.', import.meta.url));
const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
);
/** The app version the tablet reports (PATCH /api/devices/me): the package version and build day. */
const appVersion = `${version ?? '0.0.0'}+${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`;

/**
 * The tablet app, served by the API server under /tablet/ (platform/tablet-app.ts). The
 * service worker precaches the shell (versioned by Workbox's revisions) and waits: a new
 * version is offered on screen, never forced in the middle of a task (registerType prompt).
 */
export default defineConfig({
  root,
  base: '/tablet/',
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      scope: '/tablet/',
      base: '/tablet/',
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['icon.svg'],
      manifest: {
        name: 'Mise',
        short_name: 'Mise',
        description: 'Mise: food-safety records on the store tablet',
        start_url: '/tablet/',
        scope: '/tablet/',
        display: 'standalone',
        orientation: 'any',
        background_color: '#f6f7fb',
        theme_color: '#3b3fd8',
        icons: [
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,webmanifest}'],
        navigateFallback: '/tablet/index.html',
        navigateFallbackAllowlist: [/^\/tablet\//],
        cleanupOutdatedCaches: true,
        // The first version takes control of the open page at once, so every lazy screen is
        // served from the precache even if the network drops right after pairing. Updates
        // still wait for the employee (registerType prompt: no skipWaiting).
        clientsClaim: true,
        // API calls always go to the network: the app keeps its own data in IndexedDB.
        navigateFallbackDenylist: [/^\/api\//],
        // Probe alerts by Web Push: the push and notification-click handlers (public/), loaded
        // by the generated worker beside Workbox's own code (workbox-build's importScripts).
        // Videos streamed with the device token (media-auth.js: <video> requests for /api/files/
        // get the Bearer header, ranges passed through, issue 17).
        importScripts: ['alert-push.js', 'media-auth.js'],
      },
    }),
    precompress(),
  ],
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
