import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../../config';
import { canonicalJson } from '../../platform/canonical-json';

/*
 * The key that signs the records chain's tombstones (issue 21, retention): a tombstone says
 * that a range of records was removed by the retention job, so the verifier accepts their
 * absence; only a holder of this key can write one that the verifier accepts, so someone who
 * deletes records in the database cannot cover the deletion with a tombstone of their own.
 * HMAC-SHA256 over the tombstone's canonical JSON.
 */

const prefix = 'hmac-sha256:';
const cache = new Map<string, Buffer>();

/** DATA_DIR/records-signing.key when the key comes from there (RECORDS_SIGNING_KEY unset). */
export function signingKeyPathOf(config: Pick<Config, 'RECORDS_SIGNING_KEY' | 'DATA_DIR'>) {
  return config.RECORDS_SIGNING_KEY ? null : join(config.DATA_DIR, 'records-signing.key');
}

/**
 * The configured key, else one made once in DATA_DIR (32 random bytes, hex; kept with the
 * deployment's backups; several instances must set RECORDS_SIGNING_KEY instead).
 */
export function recordsSigningKey(config: Pick<Config, 'RECORDS_SIGNING_KEY' | 'DATA_DIR'>) {
  if (config.RECORDS_SIGNING_KEY) return Buffer.from(config.RECORDS_SIGNING_KEY, 'utf8');
  const path = signingKeyPathOf(config)!;
  const cached = cache.get(path);
  if (cached) return cached;
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    try {
      // 'wx': two processes starting at once keep the first one's key.
      writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'utf8');
  cache.set(path, key);
  return key;
}

/** The signature of a value (its canonical JSON). */
export function signRecord(key: Buffer, value: unknown): string {
  return `${prefix}${createHmac('sha256', key).update(canonicalJson(value)).digest('hex')}`;
}

/** Whether `signature` is the key's signature of the value. */
export function isSignedBy(key: Buffer, value: unknown, signature: unknown): boolean {
  if (typeof signature !== 'string' || !signature.startsWith(prefix)) return false;
  const expected = Buffer.from(signRecord(key, value));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
