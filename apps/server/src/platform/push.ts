import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import { dirname, join } from 'node:path';
import webPush from 'web-push';

/*
 * Web Push (VAPID) to the back-office's browsers and to the tablets (issue 15). The keys come
 * from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY; without them a key pair is made once and kept in
 * DATA_DIR/vapid.json (one instance). Several instances on one PostgreSQL must share the keys
 * through the environment, or a browser subscribed on one is refused by the other's pushes.
 */

export type PushTarget = { endpoint: string; p256dh: string; auth: string };
/** sent; gone: the push service forgot the subscription (404/410), delete it; failed: retry later. */
export type PushOutcome = 'sent' | 'gone' | 'failed';

export type PushSender = {
  publicKey: string;
  send(target: PushTarget, payload: object): Promise<PushOutcome>;
};

type VapidKeys = { publicKey: string; privateKey: string };

function storedKeys(dataDir: string): VapidKeys {
  const file = join(dataDir, 'vapid.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as VapidKeys;
  const keys = webPush.generateVAPIDKeys();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

export function createPushSender(
  config: {
    VAPID_PUBLIC_KEY?: string;
    VAPID_PRIVATE_KEY?: string;
    VAPID_SUBJECT?: string;
    PUBLIC_URL: string;
    DATA_DIR: string;
  },
  /** The HTTPS agent (tests trust their loopback push service's certificate with it). */
  options: { agent?: Agent } = {},
): PushSender {
  const keys =
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
      : storedKeys(config.DATA_DIR);
  // The subject must be a mailto: or an https: URL (push services refuse http).
  const subject =
    config.VAPID_SUBJECT ??
    (config.PUBLIC_URL.startsWith('https://') ? config.PUBLIC_URL : 'mailto:alerts@mise.local');
  const vapidDetails = { subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  return {
    publicKey: keys.publicKey,
    async send(target, payload) {
      try {
        await webPush.sendNotification(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(payload),
          { vapidDetails, TTL: 60 * 60, urgency: 'high', timeout: 10_000, agent: options.agent },
        );
        return 'sent';
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        return status === 404 || status === 410 ? 'gone' : 'failed';
      }
    },
  };
}
