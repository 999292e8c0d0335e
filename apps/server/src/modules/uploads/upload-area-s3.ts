import { PassThrough, pipeline, type Readable } from 'node:stream';
import {
  type _Object,
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { type MetadataValue, S3Store } from '@tus/s3-store';
import type { KvStore } from '@tus/server';
import { assertValidKey } from '../../platform/storage';
import { type S3StorageOptions, s3ClientConfig } from '../../platform/storage-s3';
import { type UploadArea, uploadExpiryMs } from './upload-area';
import type { UploadOutcome } from './uploads.service';

/** Where uploads live in the app's bucket (the storage driver's keys never start so). */
export const s3UploadPrefixes = {
  /**
   * The tus S3 store's objects: `<id>` (the multipart upload, then the assembled file),
   * `<id>.info` (size, metadata, the S3 upload id) and `<id>.part` (bytes short of a part).
   */
  partial: 'uploads/partial/',
  /** The outcome of each finished upload, `<id>.json`. */
  done: 'uploads/done/',
};

/**
 * No cache between requests: every request reads the upload's info from the bucket, so any
 * instance may serve the next request of an upload another one created or finished.
 */
const noCache: KvStore<MetadataValue> = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => {},
};

function statusOf(error: unknown): number | undefined {
  const found = error as { $metadata?: { httpStatusCode?: number }; status_code?: number };
  return found?.$metadata?.httpStatusCode ?? found?.status_code;
}

/**
 * The upload area in the app's S3 bucket: the tus S3 store (multipart uploads) under
 * uploads/partial/, outcomes under uploads/done/. A complete upload is copied server-side
 * (CopyObject, up to 5 GB) to its final key.
 */
export function createS3UploadArea(options: S3StorageOptions): UploadArea {
  const Bucket = options.bucket;
  const client = new S3Client(s3ClientConfig(options));
  const store = new S3Store({
    s3ClientConfig: { ...s3ClientConfig(options), bucket: Bucket },
    expirationPeriodInMilliseconds: uploadExpiryMs,
    // Expiry is ours (cleanUp below): no object tags, which many S3-compatible servers lack.
    useTags: false,
    cache: noCache,
  });
  const keyOf = (id: string) => `${s3UploadPrefixes.partial}${id}`;
  const outcomeKey = (id: string) => `${s3UploadPrefixes.done}${id}.json`;

  async function exists(Key: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  async function listAll(Prefix: string): Promise<_Object[]> {
    const objects: _Object[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }),
      );
      objects.push(...(page.Contents ?? []));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return objects;
  }

  const deleteObject = (Key: string) => client.send(new DeleteObjectCommand({ Bucket, Key }));

  return {
    datastore: store,
    keyOf,
    async findUpload(id) {
      let upload: Awaited<ReturnType<S3Store['getUpload']>>;
      try {
        upload = await store.getUpload(keyOf(id));
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
      const size = upload.size ?? 0;
      // The store counts an upload whose multipart upload is gone as complete: it is only if
      // the assembled object is there (not when the multipart upload was aborted).
      if (upload.offset === size && !(await exists(keyOf(id)))) return null;
      return {
        size,
        offset: upload.offset,
        metadata: (upload.metadata ?? {}) as Record<string, string | null>,
      };
    },
    async head(id, length) {
      const object = await client.send(
        new GetObjectCommand({ Bucket, Key: keyOf(id), Range: `bytes=0-${length - 1}` }),
      );
      const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
      return bytes.subarray(0, length);
    },
    open(id) {
      const output = new PassThrough();
      client.send(new GetObjectCommand({ Bucket, Key: keyOf(id) })).then(
        (object) => pipeline(object.Body as Readable, output, () => {}),
        (error: Error) => output.destroy(error),
      );
      return output;
    },
    async moveTo(id, key) {
      assertValidKey(key);
      // Within the bucket, without the bytes passing through the server; the object appears
      // whole or not at all. Keys are [A-Za-z0-9_./-]: nothing to encode in CopySource.
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key: key,
          CopySource: `${Bucket}/${keyOf(id)}`,
          MetadataDirective: 'REPLACE',
        }),
      );
      const copied = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return { size: copied.ContentLength ?? 0 };
    },
    async remove(id) {
      const key = keyOf(id);
      await Promise.all([key, `${key}.info`, `${key}.part`].map(deleteObject));
    },
    async readOutcome(id) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: outcomeKey(id) }));
        return JSON.parse((await object.Body?.transformToString()) ?? '') as UploadOutcome;
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    },
    async writeOutcome(outcome) {
      const Body = JSON.stringify(outcome);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: outcomeKey(outcome.id),
          Body,
          ContentType: 'application/json',
          ContentLength: Buffer.byteLength(Body),
        }),
      );
    },
    async forgetOutcome(id) {
      await deleteObject(outcomeKey(id));
    },
    async cleanUp(now) {
      const isOld = (object: _Object) =>
        object.LastModified !== undefined && now - object.LastModified.getTime() > uploadExpiryMs;
      const partial = await listAll(s3UploadPrefixes.partial);
      const present = new Set(partial.map((object) => object.Key!));
      const doomed = new Set<string>();
      for (const object of partial.filter(isOld)) {
        doomed.add(object.Key!);
        if (!object.Key!.endsWith('.info')) continue;
        // An upload created over 24 h ago: its multipart upload is aborted (parts freed), its
        // objects removed, whatever their own age.
        const key = object.Key!.slice(0, -'.info'.length);
        const info = await client
          .send(new HeadObjectCommand({ Bucket, Key: object.Key! }))
          .catch(() => null);
        const UploadId = info?.Metadata?.['upload-id'];
        if (UploadId) {
          await client
            .send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId }))
            .catch((error: unknown) => {
              // Completed or already aborted.
              if (statusOf(error) !== 404) throw error;
            });
        }
        for (const sibling of [key, `${key}.part`]) {
          if (present.has(sibling)) doomed.add(sibling);
        }
      }
      const outcomes = (await listAll(s3UploadPrefixes.done)).filter(isOld);
      for (const object of outcomes) doomed.add(object.Key!);
      for (const key of doomed) await deleteObject(key);
      return doomed.size;
    },
    async listPartial() {
      const objects = await listAll(s3UploadPrefixes.partial);
      return objects.map((object) => object.Key!.slice(s3UploadPrefixes.partial.length));
    },
  };
}
