import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sessionCookieName } from './auth/request-auth';
import { AppError } from './errors';

/** Vite names every file under assets/ after its content: a new build, new names. */
export const hashedAssetCacheControl = 'public, max-age=31536000, immutable';
/** index.html and unhashed files: revalidated on every load, so a deploy shows at once. */
export const revalidatedCacheControl = 'no-cache';

/** The language cookie the web app writes beside its stored choice (shared/i18n/i18n.ts). */
export const languageCookieName = 'mise_language';
/** What the web app shows when no language of the visitor's is offered. */
const fallbackLanguage = 'en';
/** The build's conditional preloads (apps/web/vite.config.ts `preloadHints`). */
const preloadHintPattern = /<link\b[^>]*\bdata-preload-when="([^"]+)"[^>]*>/g;

function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  for (const part of cookieHeader?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The language the web app will start in, as it decides it (its stored choice, written to a
 * cookie too, else the browser's first language it offers, else English), among `offered`.
 */
export function firstScreenLanguage(
  headers: { cookie?: string; 'accept-language'?: string },
  offered: ReadonlySet<string>,
): string {
  const stored = cookieValue(headers.cookie, languageCookieName);
  if (stored && offered.has(stored)) return stored;
  for (const range of headers['accept-language']?.split(',') ?? []) {
    const base = range.split(';')[0]!.trim().toLowerCase().split('-')[0]!;
    if (offered.has(base)) return base;
  }
  return fallbackLanguage;
}

/**
 * index.html with the preloads this visitor's first screen needs: its language's translations
 * and, with a session cookie, the signed-in layout; the other hints are removed.
 */
export function createIndexHtmlFor(indexHtml: string) {
  const conditions = [...indexHtml.matchAll(preloadHintPattern)].map((match) => match[1]!);
  const offered = new Set(
    conditions.filter((when) => when.startsWith('language:')).map((when) => when.slice(9)),
  );
  const variants = new Map<string, string>();
  return (headers: { cookie?: string; 'accept-language'?: string }): string => {
    const isSignedIn = cookieValue(headers.cookie, sessionCookieName) !== undefined;
    const wanted = new Set([`language:${firstScreenLanguage(headers, offered)}`]);
    if (isSignedIn) wanted.add('signed-in');
    const key = [...wanted].join(' ');
    let html = variants.get(key);
    if (html === undefined) {
      html = indexHtml.replace(preloadHintPattern, (tag, when: string) =>
        wanted.has(when) ? tag : '',
      );
      variants.set(key, html);
    }
    return html;
  };
}

/** The element of index.html holding the first screen's data (apps/web shared/auth/bootstrap.ts). */
export const bootstrapElementId = 'mise-bootstrap';

/**
 * JSON that is safe inside a <script> element: `<`, `>` and `&` as \u escapes (no `</script>`
 * or `<!--` can close or change it) and U+2028/U+2029 too (line ends to older JavaScript).
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** index.html with the bootstrap data in a JSON script element (in the head when it has one). */
export function withBootstrapData(html: string, data: unknown): string {
  const element = `<script type="application/json" id="${bootstrapElementId}">${scriptSafeJson(data)}</script>`;
  const headEnd = html.indexOf('</head>');
  return headEnd === -1 ? html + element : html.slice(0, headEnd) + element + html.slice(headEnd);
}

/**
 * What the signed-in first screen fetches first, asked of the API itself with the visitor's
 * cookie (the auth platform checks the session as for any request): GET /api/me and GET
 * /api/demo, as they answer. None for a cookie that is no valid session.
 */
async function bootstrapDataFor(
  app: FastifyInstance,
  cookie: string,
): Promise<{ me: unknown; demo?: unknown } | null> {
  const [me, demo] = await Promise.all([
    app.inject({ method: 'GET', url: '/api/me', headers: { cookie } }),
    app.inject({ method: 'GET', url: '/api/demo', headers: { cookie } }),
  ]);
  if (me.statusCode !== 200) return null;
  return { me: me.json(), ...(demo.statusCode === 200 ? { demo: demo.json() } : {}) };
}

/**
 * @fastify/static options for a Vite build folder (the web app's, the tablet app's): the
 * build's .br and .gz files as they are, hashed files under assets/ cached for a year, every
 * other file revalidated; one route per file found (no wildcard, no index).
 */
export function builtAppStaticOptions(root: string) {
  const assetsFolder = join(root, 'assets') + sep;
  return {
    root,
    wildcard: false,
    index: false as const,
    preCompressed: true,
    cacheControl: false,
    setHeaders(response: { setHeader: (name: string, value: string) => unknown }, path: string) {
      response.setHeader(
        'cache-control',
        path.startsWith(assetsFolder) ? hashedAssetCacheControl : revalidatedCacheControl,
      );
      response.setHeader('vary', 'accept-encoding');
    },
  };
}

/**
 * Serves the built web app from `webDist`: the build's .br and .gz files as they are (the
 * Vite build writes them) to a browser that accepts them, hashed assets cached for a year,
 * and index.html (revalidated) for every other GET outside /api, the single-page app's
 * routes. Answers false when there is no build to serve.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<boolean> {
  const indexPath = join(webDist, 'index.html');
  if (!existsSync(indexPath)) return false;
  const indexHtmlFor = createIndexHtmlFor(await readFile(indexPath, 'utf8'));
  await app.register(fastifyStatic, builtAppStaticOptions(webDist));
  app.setNotFoundHandler(async (request, reply) => {
    // A chunk of an earlier build is a 404, not the page: the app then offers a reload.
    const isAppRoute =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/assets/');
    if (!isAppRoute) throw new AppError('not-found');
    // Client-side routes: the single-page app answers every other GET. With a valid session
    // the page carries the user and the demo status (one round trip less before the layout);
    // that page is the visitor's own: built per request, never kept.
    const html = indexHtmlFor(request.headers);
    const session = cookieValue(request.headers.cookie, sessionCookieName);
    const bootstrap = session
      ? await bootstrapDataFor(app, `${sessionCookieName}=${session}`)
      : null;
    return reply
      .type('text/html')
      .header('cache-control', revalidatedCacheControl)
      .header('vary', 'cookie, accept-language')
      .send(bootstrap ? withBootstrapData(html, bootstrap) : html);
  });
  return true;
}
