import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from '../../scripts/vite-precompress';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The rolldown group of the signed-in layout and the home screen (see codeSplitting below). */
const layoutChunkName = 'layout';
const layoutEntries =
  /[\\/]src[\\/](app[\\/]layout[\\/]app-layout|features[\\/]home[\\/]pages[\\/]home-page)\.tsx$/;
const localeModule = /[\\/]src[\\/]locales[\\/](\w+)\.json$/;

/**
 * Adds to index.html a `<link rel="modulepreload">` for each language's translations and one
 * for the signed-in layout's chunk, each marked `data-preload-when`: the server keeps those
 * that apply to the request (platform/web-app.ts), so the first screen's translations and, for
 * a signed-in visitor, the layout download alongside the shell instead of after it runs.
 */
function preloadHints(): Plugin {
  return {
    name: 'mise-preload-hints',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunks = Object.values(context.bundle ?? {}).filter(
          (output) => output.type === 'chunk',
        );
        const hints = chunks.flatMap((chunk) => {
          const language = chunk.facadeModuleId?.match(localeModule)?.[1];
          if (language) return [{ file: chunk.fileName, when: `language:${language}` }];
          if (chunk.name !== layoutChunkName) return [];
          // The layout's stylesheet (Mantine's full one) too, after the shell's.
          const styles = [...(chunk.viteMetadata?.importedCss ?? [])];
          return [
            { file: chunk.fileName, when: 'signed-in' },
            ...styles.map((file) => ({ file, when: 'signed-in' })),
          ];
        });
        return hints.map(({ file, when }) => ({
          tag: 'link',
          attrs: file.endsWith('.css')
            ? { rel: 'stylesheet', crossorigin: true, href: `/${file}`, 'data-preload-when': when }
            : {
                rel: 'modulepreload',
                crossorigin: true,
                href: `/${file}`,
                'data-preload-when': when,
              },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

const mantineClass = /\bm_[0-9a-f]{8}\b/g;
const signedOutPage = /[\\/]src[\\/]features[\\/]auth[\\/]pages[\\/]/;

/**
 * Fails the build when a Mantine component of the shell or of a signed-out screen has no
 * styles in the shell's stylesheet (app/shell-styles.css lists Mantine's files by hand: the
 * full sheet comes with the signed-in layout only).
 */
function checkShellStyles(): Plugin {
  return {
    name: 'mise-check-shell-styles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const outputs = Object.values(bundle);
      const entry = outputs.find((output) => output.type === 'chunk' && output.isEntry);
      if (entry?.type !== 'chunk') return;
      const shellStyleFiles = outputs.flatMap((output) =>
        output.type === 'chunk' && (output.isEntry || output.name === 'shell')
          ? [...(output.viteMetadata?.importedCss ?? [])]
          : [],
      );
      const entryStyles = new Set(
        shellStyleFiles.flatMap((file) => {
          const asset = bundle[file];
          return asset?.type === 'asset' ? (String(asset.source).match(mantineClass) ?? []) : [];
        }),
      );
      const shellChunks = outputs.filter(
        (output) =>
          output.type === 'chunk' &&
          (output.isEntry ||
            output.name === 'shell' ||
            signedOutPage.test(output.facadeModuleId ?? '')),
      );
      for (const chunk of shellChunks) {
        if (chunk.type !== 'chunk') continue;
        const missing = [...new Set(chunk.code.match(mantineClass) ?? [])].filter(
          (name) => !entryStyles.has(name),
        );
        if (missing.length) {
          this.error(
            `${chunk.fileName} uses Mantine classes without styles in app/shell-styles.css: ${missing.join(', ')}`,
          );
        }
      }
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), precompress(), preloadHints(), checkShellStyles()],
  resolve: {
    // One copy of React and Mantine whatever npm hoists: MantineProvider's context must be shared.
    dedupe: ['react', 'react-dom', '@mantine/core', '@mantine/hooks'],
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // React changes less often than the app: its own long-cached chunk. Other libraries stay
        // with the chunks that use them (a catch-all vendor group put every library, the date
        // pickers of one screen included, in the first download).
        codeSplitting: {
          groups: [
            {
              name: 'vendor-react',
              test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              priority: 2,
            },
            // Everything else the entry needs before the first screen, in one file: on a phone
            // network each request costs a round trip (HTTP/1.1: six at once).
            { name: 'shell', tags: ['$initial'], priority: 1 },
            // The signed-in layout and the home screen (where everyone lands) with every module
            // they import, in one file: one request instead of about 35 automatic chunks of a
            // few KB each, each a round trip on a phone. The other screens import from it.
            { name: layoutChunkName, test: (id) => layoutEntries.test(id) },
          ],
        },
      },
    },
  },
});
