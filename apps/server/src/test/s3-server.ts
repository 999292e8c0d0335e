import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { S3StorageOptions } from '../platform/storage-s3';

/** A real S3-protocol server (s3rver) on loopback, with one empty bucket. */
export type TestS3Server = {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  /** The driver's options (path style, the server's own credentials). */
  options: S3StorageOptions;
  /** The same as environment variables, for loadConfig. */
  env: Record<string, string>;
  /** Every file the server keeps on disk (objects, their metadata, multipart parts), relative. */
  storedFiles(): string[];
  close(): Promise<void>;
};

const require = createRequire(import.meta.url);

/**
 * The server runs in a child process of its own, so a test's memory figures count only the
 * driver's side. It checks SigV4 signatures against a key pair made for this run (its fixed
 * default pair is revoked), stores its objects in a temporary folder removed by close().
 */
const serverScript = `
const S3rver = require(process.env.S3RVER_MAIN);
const { DUMMY_ACCOUNT } = require(process.env.S3RVER_ACCOUNT);
DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
DUMMY_ACCOUNT.createKeyPair(process.env.S3_KEY_ID, process.env.S3_SECRET);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: process.env.S3_DIRECTORY,
  vhostBuckets: false,
  configureBuckets: [{ name: process.env.S3_BUCKET }],
});
// s3rver lacks AbortMultipartUpload (DELETE /bucket/key?uploadId=…): added as S3 does it, the
// upload's parts removed (204), an unknown upload refused (404 NoSuchUpload).
const { rm, stat } = require('node:fs/promises');
const path = require('node:path');
server.middleware.unshift(async (ctx, next) => {
  const [, bucket, ...key] = ctx.path.split('/');
  if (ctx.method !== 'DELETE' || !ctx.query.uploadId || !bucket || key.length === 0) return next();
  const uploadId = String(ctx.query.uploadId);
  const folder = path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
  if (uploadId.includes('.') || uploadId.includes('/') || !(await stat(folder).catch(() => null))) {
    ctx.status = 404;
    ctx.type = 'application/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code></Error>';
    return;
  }
  await rm(folder, { recursive: true });
  ctx.status = 204;
});
// Nor ListParts (GET /bucket/key?uploadId=…), which the tus S3 store reads offsets from: added
// as S3 answers it (the parts received, by number; an unknown or completed upload 404
// NoSuchUpload). One page: at most 1,000 parts.
const { readdir, readFile } = require('node:fs/promises');
server.middleware.unshift(async (ctx, next) => {
  const [, bucket, ...key] = ctx.path.split('/');
  if (ctx.method !== 'GET' || !ctx.query.uploadId || !bucket || key.length === 0) return next();
  const uploadId = String(ctx.query.uploadId);
  const folder = path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
  const names = uploadId.includes('.') || uploadId.includes('/')
    ? null
    : await readdir(folder).catch(() => null);
  ctx.type = 'application/xml';
  if (!names) {
    ctx.status = 404;
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code></Error>';
    return;
  }
  // A part is listed once received whole: s3rver writes its .md5 file last.
  const marker = Number(ctx.query['part-number-marker'] ?? 0);
  const numbers = names.filter((name) => /^\\d+$/.test(name) && names.includes(name + '.md5'))
    .map(Number).filter((number) => number > marker).sort((a, b) => a - b).slice(0, 1000);
  const parts = [];
  for (const number of numbers) {
    const file = path.join(folder, String(number));
    const [info, md5] = await Promise.all([stat(file), readFile(file + '.md5', 'utf8')]).catch(
      () => [null, null],
    );
    // Gone meanwhile (the upload completed or aborted).
    if (!info) continue;
    parts.push('<Part><PartNumber>' + number + '</PartNumber><LastModified>' +
      info.mtime.toISOString() + '</LastModified><ETag>"' + md5.trim() + '"</ETag><Size>' +
      info.size + '</Size></Part>');
  }
  ctx.status = 200;
  ctx.body = '<?xml version="1.0" encoding="UTF-8"?>' +
    '<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>' + bucket +
    '</Bucket><Key>' + key.join('/') + '</Key><UploadId>' + uploadId +
    '</UploadId><PartNumberMarker>' + marker + '</PartNumberMarker><NextPartNumberMarker>' +
    (numbers.at(-1) ?? marker) + '</NextPartNumberMarker><MaxParts>1000</MaxParts>' +
    '<IsTruncated>false</IsTruncated>' + parts.join('') + '</ListPartsResult>';
});
// s3rver checks a bucket-level request's signature (GET /bucket/?list-type=2: ListObjectsV2 in
// path style) against /bucket, where S3 signs the path as sent, /bucket/: for such a path its
// canonical resource is built the vhost way ('/' + bucket + mount path), giving /bucket/.
// Placed just before the router, after s3rver's own vhost step.
server.middleware.splice(server.middleware.length - 1, 0, (ctx, next) => {
  if (/^\\/[^/]+\\/$/.test(ctx.path)) {
    ctx.state.vhost = true;
    ctx.mountPath = '/';
  }
  return next();
});
// s3rver answers a listing with a delimiter (the "folders" under a prefix) only for keys one
// level below the prefix: deeper keys are never walked. Listed here as S3 does it, from the
// whole listing under the prefix: each key with the delimiter after the prefix counts once, as
// its common prefix (one page: enough for tests).
const listObjects = server.store.listObjects.bind(server.store);
server.store.listObjects = async (bucket, options) => {
  if (!options.delimiter) return listObjects(bucket, options);
  const all = await listObjects(bucket, { ...options, delimiter: '', maxKeys: Infinity });
  const prefix = options.prefix || '';
  const commonPrefixes = new Set();
  const objects = [];
  for (const object of all.objects) {
    const index = object.key.slice(prefix.length).indexOf(options.delimiter);
    if (index === -1) objects.push(object);
    else commonPrefixes.add(object.key.slice(0, prefix.length + index + 1));
  }
  return { objects, commonPrefixes: [...commonPrefixes].sort(), isTruncated: false };
};
server.run().then(
  (address) => process.stdout.write(JSON.stringify({ port: address.port }) + '\\n'),
  (error) => { console.error(error); process.exit(1); },
);
process.on('disconnect', () => process.exit(0));
`;

export async function startS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'mise-s3-'));
  const bucket = `mise-test-${randomBytes(3).toString('hex')}`;
  const accessKeyId = `TEST${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(20).toString('base64url');
  const main = require.resolve('@20minutes/s3rver');
  const child: ChildProcess = spawn(process.execPath, ['-e', serverScript], {
    env: {
      PATH: process.env.PATH,
      S3RVER_MAIN: main,
      S3RVER_ACCOUNT: join(dirname(main), 'models', 'account.js'),
      S3_KEY_ID: accessKeyId,
      S3_SECRET: secretAccessKey,
      S3_DIRECTORY: directory,
      S3_BUCKET: bucket,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    let errors = '';
    const timer = setTimeout(() => fail(new Error('s3rver did not start within 20 s')), 20_000);
    function fail(error: Error) {
      clearTimeout(timer);
      child.kill();
      reject(error);
    }
    child.stderr!.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n') && line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    child.once('exit', (code) => fail(new Error(`s3rver exited (${code}): ${errors}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const options: S3StorageOptions = {
    bucket,
    endpoint,
    region: 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: true,
  };
  return {
    endpoint,
    bucket,
    options,
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    storedFiles() {
      return readdirSync(directory, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(directory, join(entry.parentPath, entry.name)));
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
