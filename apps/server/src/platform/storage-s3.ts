import { createReadStream } from 'node:fs';
import { pipeline, type Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertValidKey, clampRange, RangeNotSatisfiableError, type Storage } from './storage';

export type S3StorageOptions = {
  bucket: string;
  /** An S3-compatible server's address; unset means AWS S3 in `region`. */
  endpoint?: string;
  region: string;
  /** Both or neither: neither means the SDK's default credential chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** http://host/bucket/key addresses (MinIO-like servers) instead of bucket.host/key. */
  forcePathStyle: boolean;
};

/**
 * Multipart uploads send parts of 5 MB (S3's smallest), at most 3 at a time: a streamed upload
 * holds about (3 + 1) × 5 MB whatever its size, and 10,000 parts allow 50 GB.
 */
const partSize = 5 * 1024 * 1024;
const queueSize = 2;

/** The S3 client for these options (also for other S3 users, e.g. a resumable-upload store). */
export function s3ClientConfig(options: S3StorageOptions): S3ClientConfig {
  return {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Checksums only where S3 requires them: the SDK's default (a CRC32 trailer on every upload)
    // is refused by many S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

/** The whole object's size from a Content-Range header (`bytes 0-9/1234`). */
function totalOf(contentRange: string | undefined): number | undefined {
  const total = contentRange?.match(/\/(\d+)$/)?.[1];
  return total === undefined ? undefined : Number(total);
}

export function createS3Storage(options: S3StorageOptions): Storage & { client: S3Client } {
  const client = new S3Client(s3ClientConfig(options));
  const Bucket = options.bucket;
  const keyOf = (key: string) => {
    assertValidKey(key);
    return key;
  };

  async function stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  return {
    client,
    async put(key, data) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: keyOf(key), Body: data, ContentLength: data.length }),
      );
    },
    putFile(key, path) {
      return this.putStream(key, createReadStream(path));
    },
    async putStream(key, stream) {
      const Key = keyOf(key);
      let size = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      // A failing source destroys `counted` with its error, which fails the upload; a failing
      // upload destroys both. Either way the multipart upload is aborted: S3 shows an object
      // only once CompleteMultipartUpload succeeds, so nothing appears under the key.
      pipeline(stream, counted, () => {});
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: counted },
        partSize,
        queueSize,
        // Aborted below, so that the upload's own error is the one thrown.
        leavePartsOnError: true,
      });
      try {
        await upload.done();
      } catch (error) {
        counted.destroy();
        if (upload.uploadId) {
          // Best effort: parts a failed abort leaves are the bucket lifecycle rule's to remove
          // (AbortIncompleteMultipartUpload); no object exists under the key either way.
          await client
            .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: upload.uploadId }))
            .catch(() => {});
        }
        throw error;
      }
      return { size };
    },
    async get(key, range) {
      const Key = keyOf(key);
      try {
        if (!range) {
          const object = await client.send(new GetObjectCommand({ Bucket, Key }));
          return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
        }
        clampRange(range, Number.MAX_SAFE_INTEGER);
        const object = await client.send(
          new GetObjectCommand({ Bucket, Key, Range: `bytes=${range.start}-${range.end ?? ''}` }),
        );
        const body = object.Body as Readable;
        const size = totalOf(object.ContentRange);
        if (size === undefined) {
          body.destroy();
          throw new Error(`The S3 server answered no Content-Range for a range of ${Key}`);
        }
        return { stream: body, size, range: clampRange(range, size) };
      } catch (error) {
        const status = statusOf(error);
        if (status === 404) return null;
        if (status === 416) {
          const found = await stat(key);
          if (!found) return null;
          throw new RangeNotSatisfiableError(found.size);
        }
        throw error;
      }
    },
    stat,
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
  };
}
