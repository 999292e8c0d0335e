import { execFileSync } from 'node:child_process';
import { createECDH, type ECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ece from 'http_ece';
import { afterAll, beforeAll } from 'vitest';

/**
 * A Web Push service on loopback (HTTPS, a self-signed certificate made with openssl): it
 * records each push and answers 201, or 410 Gone for endpoints under /gone/. Subscriptions are
 * made with real P-256 keys, so a test can decrypt what the server sent (RFC 8291 aes128gcm).
 */
export type ReceivedPush = {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

export type TestSubscription = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  decrypt(body: Buffer): unknown;
};

export type TestPushService = {
  /** An HTTPS agent that trusts the service's certificate. */
  agent: Agent;
  pushes: ReceivedPush[];
  subscription(path: string): TestSubscription;
};

export function useTestPushService(): TestPushService {
  const service = { pushes: [] as ReceivedPush[] } as TestPushService & { origin: string };
  let close = async () => {};
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mise-push-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(join(dir, 'cert.pem'));
    const server = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert },
      (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          service.pushes.push({
            path: request.url ?? '',
            headers: request.headers,
            body: Buffer.concat(chunks),
          });
          response.writeHead(request.url?.startsWith('/gone/') ? 410 : 201).end();
        });
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    service.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    service.agent = new Agent({ ca: cert });
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterAll(async () => {
    service.agent?.destroy();
    await close();
  });
  service.subscription = (path: string) => {
    const ecdh: ECDH = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    return {
      endpoint: `${service.origin}${path}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      decrypt: (body: Buffer) =>
        JSON.parse(
          ece
            .decrypt(body, {
              version: 'aes128gcm',
              privateKey: ecdh,
              authSecret: auth.toString('base64url'),
            })
            .toString('utf8'),
        ),
    };
  };
  return service;
}
