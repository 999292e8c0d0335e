import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/** Vite names every file under assets/ after its content: a new build, new names. */
export const hashedAssetCacheControl = 'public, max-age=31536000, immutable';
/** index.html and unhashed files: revalidated on every load, so a deploy shows at once. */
export const revalidatedCacheControl = 'no-cache';

/**
 * Serves the built web app from `webDist`: the build's .br and .gz files as they are (the
 * Vite build writes them) to a browser that accepts them, hashed assets cached for a year,
 * and index.html (revalidated) for every other GET outside /api, the single-page app's
 * routes. Answers false when there is no build to serve.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<boolean> {
  const indexPath = join(webDist, 'index.html');
  if (!existsSync(indexPath)) return false;
  const indexHtml = await readFile(indexPath, 'utf8');
  const assetsFolder = join(webDist, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(response, path) {
      response.setHeader(
        'cache-control',
        path.startsWith(assetsFolder) ? hashedAssetCacheControl : revalidatedCacheControl,
      );
      response.setHeader('vary', 'accept-encoding');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    // A chunk of an earlier build is a 404, not the page: the app then offers a reload.
    const isAppRoute =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/assets/');
    if (!isAppRoute) throw new AppError('not-found');
    // Client-side routes: the single-page app answers every other GET.
    return reply.type('text/html').header('cache-control', revalidatedCacheControl).send(indexHtml);
  });
  return true;
}
