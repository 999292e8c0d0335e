import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const compressible = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a .br and a .gz beside each text file of the build (when smaller), at the highest
 * levels: the server sends them as they are (@fastify/static `preCompressed`), so no
 * compression work per request.
 */
function precompress(): Plugin {
  return {
    name: 'mise-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? root;
      const files = Object.keys(bundle).filter((file) => compressible.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const content = await readFile(path);
          if (content.length < 1024) return;
          const [brotliContent, gzipContent] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: 9 }),
          ]);
          if (brotliContent.length < content.length) await writeFile(`${path}.br`, brotliContent);
          if (gzipContent.length < content.length) await writeFile(`${path}.gz`, gzipContent);
        }),
      );
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), precompress()],
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
          ],
        },
      },
    },
  },
});
