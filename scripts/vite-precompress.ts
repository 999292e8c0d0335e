import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const compressible = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a .br and a .gz beside each text file of the build (when smaller), at the highest
 * levels: the server sends them as they are (@fastify/static `preCompressed`), so no
 * compression work per request.
 */
export function precompress(): Plugin {
  return {
    name: 'mise-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? process.cwd();
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
