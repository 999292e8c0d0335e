import { describe, expect, it } from 'vitest';
import { useTestApp } from './test/harness';

const context = useTestApp();

describe('security headers', () => {
  it('go with every answer: API reads, errors and unknown routes', async () => {
    for (const url of ['/api/health', '/api/me', '/api/nothing-here']) {
      const response = await context.app.inject({ method: 'GET', url });
      const policy = String(response.headers['content-security-policy']);
      expect(policy, url).toContain("default-src 'self'");
      expect(policy, url).toContain("script-src 'self'");
      expect(policy, url).toContain("style-src 'self' 'unsafe-inline'");
      expect(policy, url).toContain("img-src 'self' data: blob:");
      expect(policy, url).toContain("object-src 'none'");
      expect(policy, url).toContain("frame-ancestors 'none'");
      expect(policy, url).not.toContain('upgrade-insecure-requests');
      // No stock image key in tests: no image host allowed.
      expect(policy, url).not.toContain('pexels');
      // No outside video host: uploads and videos stay on our origin.
      expect(policy, url).toContain("connect-src 'self';");
      expect(policy, url).toMatch(/media-src 'self' blob:(;|$)/);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(response.headers['strict-transport-security'], url).toMatch(/max-age=\d+/);
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
      expect(response.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(response.headers['cross-origin-embedder-policy'], url).toBeUndefined();
      expect(response.headers['x-powered-by'], url).toBeUndefined();
    }
  });
});

describe('security headers with an outside video host', () => {
  const hosted = useTestApp({
    env: { VIDEO_HOST_ORIGINS: 'https://*.gcore.com  https://api.gvideo.io' },
  });

  it('let the browser upload to the host and play from it, nothing else', async () => {
    const response = await hosted.app.inject({ method: 'GET', url: '/api/health' });
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("connect-src 'self' https://*.gcore.com https://api.gvideo.io;");
    expect(policy).toContain("media-src 'self' blob: https://*.gcore.com https://api.gvideo.io");
    expect(policy).toContain("script-src 'self';");
  });
});
