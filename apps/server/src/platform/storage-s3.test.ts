import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startS3Server, type TestS3Server } from '../test/s3-server';
import { createS3Storage } from './storage-s3';

const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/mise-config-test' };

describe('storage configuration (STORAGE_DRIVER and S3_*)', () => {
  it('defaults to the local disk', () => {
    expect(loadConfig(base).storage).toEqual({ driver: 'local' });
    expect(loadConfig({ ...base, STORAGE_DRIVER: '' }).storage).toEqual({ driver: 'local' });
  });

  it('reads a complete S3 configuration, region us-east-1 and virtual-host style by default', () => {
    const config = loadConfig({
      ...base,
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'mise-files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.storage).toEqual({
      driver: 's3',
      bucket: 'mise-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
    const aws = loadConfig({
      ...base,
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'mise-files',
      S3_REGION: 'eu-west-3',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(aws.storage).toEqual({
      driver: 's3',
      bucket: 'mise-files',
      endpoint: undefined,
      region: 'eu-west-3',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
    });
  });

  it('says what is missing or wrong', () => {
    const cases: [Record<string, string>, string][] = [
      [{ STORAGE_DRIVER: 's3' }, 'S3_BUCKET: is required when STORAGE_DRIVER=s3'],
      [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'key' }, 'S3_SECRET_ACCESS_KEY'],
      [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'x' }, 'S3_ACCESS_KEY_ID'],
      [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
      [{ STORAGE_DRIVER: 'gcs' }, 'STORAGE_DRIVER'],
      [{ S3_BUCKET: 'b' }, 'S3_BUCKET: is set but STORAGE_DRIVER is not s3'],
      [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig({ ...base, ...env }), JSON.stringify(env)).toThrow(message);
    }
  });
});

describe('the S3 driver against the S3-protocol server', () => {
  let server: TestS3Server;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs its requests: wrong credentials or another bucket are refused', async () => {
    const good = createS3Storage(server.options);
    await good.put('stores/s-1/ok.txt', Buffer.from('ok'));

    const wrongSecret = createS3Storage({ ...server.options, secretAccessKey: 'not-the-secret' });
    await expect(wrongSecret.put('stores/s-1/x.txt', Buffer.from('x'))).rejects.toThrow();
    await expect(wrongSecret.get('stores/s-1/ok.txt')).rejects.toThrow();

    const otherBucket = createS3Storage({ ...server.options, bucket: 'no-such-bucket' });
    await expect(otherBucket.put('stores/s-1/x.txt', Buffer.from('x'))).rejects.toThrow();

    expect(server.storedFiles().filter((path) => path.includes('x.txt'))).toEqual([]);
  });
});
