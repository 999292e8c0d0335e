/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/react" />

/** The app version written by the build (vite.config.ts), reported to the server. */
declare const __APP_VERSION__: string;
