import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { builtAppStaticOptions, revalidatedCacheControl } from './web-app';

/** Where the tablet app is served (apps/tablet/vite.config.ts `base`). */
export const tabletPrefix = '/tablet/';

/**
 * Serves the built tablet app under /tablet/: hashed assets cached for a year, everything
 * else (index.html, the service worker, the manifest) revalidated so a new version is seen
 * at once (the service worker then offers it). The build's .br and .gz files are sent as
 * they are. Any other GET under /tablet/ is the app's page. Answers false without a build.
 */
export async function registerTabletApp(
  app: FastifyInstance,
  tabletDist: string,
): Promise<boolean> {
  const indexPath = join(tabletDist, 'index.html');
  if (!existsSync(indexPath)) return false;
  const indexHtml = await readFile(indexPath, 'utf8');
  await app.register(fastifyStatic, {
    ...builtAppStaticOptions(tabletDist),
    prefix: tabletPrefix,
    decorateReply: false,
  });
  const sendIndex = async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html').header('cache-control', revalidatedCacheControl).send(indexHtml);
  app.get('/tablet', async (_request, reply) => reply.redirect(tabletPrefix, 301));
  app.get(tabletPrefix, sendIndex);
  app.get(`${tabletPrefix}*`, async (request, reply) => {
    // A missing hashed file is a 404 (an old chunk), not the page.
    if (request.url.startsWith(`${tabletPrefix}assets/`)) return reply.code(404).send();
    return sendIndex(request, reply);
  });
  return true;
}
