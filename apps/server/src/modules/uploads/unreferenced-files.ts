import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import {
  communications,
  documents,
  elementAttachments,
  storeTaskConfigurations,
  taskConfigurations,
  tasks,
  trainings,
} from '../../db/schema';
import type { Storage } from '../../platform/storage';
import { s3ClientConfig } from '../../platform/storage-s3';
import { uploadExpiryMs } from './upload-area';

/*
 * Files uploaded ahead of a save (the tus purposes store them when the last byte arrives, the
 * editor saves the record later) stay in storage when the record is never saved: the editor
 * closed, the attachment replaced before saving. A sweep lists the stored objects under the
 * folders those uploads go to, and removes the ones older than a day that no row references.
 * docs/decisions.md "Issue 17: cleanup of unreferenced uploads".
 */

/** An object is left alone this long after it was written (as an unfinished upload: 24 h). */
export const unreferencedFileGraceMs = uploadExpiryMs;

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

type Kind = {
  name: 'element-attachments' | 'task-attachments' | 'communications' | 'trainings' | 'documents';
  /** The keys of this kind (built by the server: `<owners>/<id>/<folder>/…`, or global ones). */
  pattern: RegExp;
  /** Which of `keys` a row references. */
  referenced(db: Database, keys: string[]): Promise<string[]>;
};

const inList = (keys: string[]) =>
  sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  );

async function pathsOf(db: Database, query: SQL): Promise<string[]> {
  const result = (await db.execute(query)) as unknown as { rows: { path: string | null }[] };
  return result.rows.flatMap((row) => (row.path ? [row.path] : []));
}

/** The string values `jsonPath` finds in a jsonb column, among `keys` (lax: odd shapes skipped). */
const jsonPaths = (table: SQL, column: SQL, jsonPath: string, keys: string[]) => sql`
  select found.value #>> '{}' as path
  from ${table} cross join lateral jsonb_path_query(${column}, ${sql.raw(`'${jsonPath}'`)}) as found(value)
  where found.value #>> '{}' in (${inList(keys)})`;

/**
 * Each folder an upload purpose stores into, with the rows that may point at its files (every
 * save checks the folder, so a file is only referenced by its own kind's rows).
 */
const kinds: Kind[] = [
  {
    // Encyclopedia attachments (purposes database/store-element-attachment, plain uploads,
    // duplicates, catalogue copies): element_attachments.path.
    name: 'element-attachments',
    pattern: new RegExp(`^(databases|stores)/${uuid}/element_attachments/.+$`),
    referenced: (db, keys) =>
      pathsOf(
        db,
        sql`select ${elementAttachments.path} as path from ${elementAttachments}
          where ${elementAttachments.path} in (${inList(keys)})`,
      ),
  },
  {
    // Action attachments (database/store-task-attachment): the configurations' actions, and the
    // tasks that copied them (history keeps showing them).
    name: 'task-attachments',
    pattern: new RegExp(`^(databases|stores)/${uuid}/task_configurations_attachments/.+$`),
    async referenced(db, keys) {
      const actionFiles = '$.actions[*].attachments[*].path';
      const found = new Set([
        ...(await pathsOf(
          db,
          sql`${jsonPaths(sql`${taskConfigurations}`, sql`${taskConfigurations.configuration}`, actionFiles, keys)}
          union
          ${jsonPaths(sql`${storeTaskConfigurations}`, sql`${storeTaskConfigurations.configuration}`, actionFiles, keys)}`,
        )),
      ]);
      const rest = keys.filter((key) => !found.has(key));
      if (rest.length === 0) return [...found];
      // Tasks are many: only for the files no configuration holds, tasks with actions only.
      const inTasks = await pathsOf(
        db,
        sql`select distinct found.value #>> '{}' as path
          from ${tasks}
          cross join lateral jsonb_path_query(${tasks.actions}, '$[*].attachments[*].path') as found(value)
          where ${tasks.actions} <> '[]'::jsonb and found.value #>> '{}' in (${inList(rest)})`,
      );
      return [...found, ...inTasks];
    },
  },
  {
    // Communication attachments (communication-attachment): communications.attachment_path.
    name: 'communications',
    pattern: new RegExp(`^databases/${uuid}/communications/.+$`),
    referenced: (db, keys) =>
      pathsOf(
        db,
        sql`select ${communications.attachment_path} as path from ${communications}
          where ${communications.attachment_path} in (${inList(keys)})`,
      ),
  },
  {
    // Training section attachments (training-attachment): trainings.sections[].attachment.path.
    name: 'trainings',
    pattern: new RegExp(`^((databases|stores|distributors)/${uuid}/training|trainings)/.+$`),
    referenced: (db, keys) =>
      pathsOf(
        db,
        jsonPaths(sql`${trainings}`, sql`${trainings.sections}`, '$[*].attachment.path', keys),
      ),
  },
  {
    // Documents (document): documents.storage_key.
    name: 'documents',
    pattern: new RegExp(`^(databases|stores|distributors)/${uuid}/documents/.+$`),
    referenced: (db, keys) =>
      pathsOf(
        db,
        sql`select ${documents.storage_key} as path from ${documents}
          where ${documents.storage_key} in (${inList(keys)})`,
      ),
  },
];

const kindOf = (key: string) => kinds.find((kind) => kind.pattern.test(key));

/**
 * The folders swept, in key order (the order a listing answers, so one cursor key says where a
 * run stopped): per owner area, each owner's folders, sorted.
 */
const ownerAreas: { area: string; folders: string[] }[] = [
  {
    area: 'databases/',
    folders: [
      'communications/',
      'documents/',
      'element_attachments/',
      'task_configurations_attachments/',
      'training/',
    ],
  },
  { area: 'distributors/', folders: ['documents/', 'training/'] },
  {
    area: 'stores/',
    folders: [
      'documents/',
      'element_attachments/',
      'task_configurations_attachments/',
      'training/',
    ],
  },
];
const globalFolders = ['trainings/'];

/** An object in storage and when it was last written. */
export type StoredObject = { key: string; modifiedAt: number };

/** Reads what the storage holds, in key order (both drivers list so). */
export type StorageLister = {
  /** The folder prefixes directly under `prefix` (`databases/` → `databases/<id>/`), sorted. */
  folders(prefix: string): AsyncIterable<string>;
  /** The objects under `prefix` whose key sorts after `startAfter`, in key order. */
  objects(prefix: string, startAfter?: string): AsyncIterable<StoredObject>;
};

/** Whether every key under `prefix` sorts at or before `cursor` (nothing left there). */
const isBehind = (prefix: string, cursor: string | null) =>
  cursor !== null && cursor > prefix && !cursor.startsWith(prefix);

/** The local driver's files under DATA_DIR/files (directories walked in key order). */
export function createLocalLister(root: string): StorageLister {
  type Entry = { name: string; isDirectory: boolean };
  const entriesOf = async (path: string): Promise<Entry[]> => {
    const found = await readdir(path, { withFileTypes: true }).catch(() => []);
    return (
      found
        .filter((entry) => entry.isDirectory() || entry.isFile())
        .map((entry) => ({ name: entry.name, isDirectory: entry.isDirectory() }))
        // A directory's keys go on with '/': `a.pdf` sorts before `a/…`.
        .sort((left, right) => {
          const a = left.isDirectory ? `${left.name}/` : left.name;
          const b = right.isDirectory ? `${right.name}/` : right.name;
          return a < b ? -1 : a > b ? 1 : 0;
        })
    );
  };
  async function* walk(prefix: string, startAfter?: string): AsyncIterable<StoredObject> {
    for (const entry of await entriesOf(join(root, prefix))) {
      const key = `${prefix}${entry.name}`;
      if (entry.isDirectory) {
        if (isBehind(`${key}/`, startAfter ?? null)) continue;
        yield* walk(`${key}/`, startAfter);
        continue;
      }
      if (startAfter !== undefined && key <= startAfter) continue;
      const info = await stat(join(root, key)).catch(() => null);
      if (info?.isFile()) yield { key, modifiedAt: info.mtimeMs };
    }
  }
  return {
    async *folders(prefix) {
      for (const entry of await entriesOf(join(root, prefix))) {
        if (entry.isDirectory) yield `${prefix}${entry.name}/`;
      }
    },
    objects: (prefix, startAfter) => walk(prefix, startAfter),
  };
}

/** The S3 driver's bucket (ListObjectsV2, 1,000 keys a page). */
export function createS3Lister(client: S3Client, Bucket: string): StorageLister {
  return {
    async *folders(Prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix, Delimiter: '/', ContinuationToken }),
        );
        for (const common of page.CommonPrefixes ?? []) {
          if (common.Prefix) yield common.Prefix;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async *objects(Prefix, StartAfter) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket,
            Prefix,
            StartAfter: ContinuationToken ? undefined : StartAfter,
            ContinuationToken,
          }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          yield { key: object.Key, modifiedAt: object.LastModified?.getTime() ?? Date.now() };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}

/** The lister of the storage the configuration names (the app's storage). */
export function createStorageLister(config: Config): StorageLister {
  if (config.storage.driver === 's3') {
    return createS3Lister(new S3Client(s3ClientConfig(config.storage)), config.storage.bucket);
  }
  return createLocalLister(join(config.DATA_DIR, 'files'));
}

/** Every swept object after `cursor`, in key order. */
async function* sweptObjects(
  lister: StorageLister,
  cursor: string | null,
): AsyncIterable<StoredObject> {
  const inFolder = (prefix: string) =>
    lister.objects(prefix, cursor?.startsWith(prefix) ? cursor : undefined);
  for (const { area, folders } of ownerAreas) {
    if (isBehind(area, cursor)) continue;
    for await (const owner of lister.folders(area)) {
      if (!new RegExp(`^${area}${uuid}/$`).test(owner) || isBehind(owner, cursor)) continue;
      for (const folder of folders) {
        const prefix = `${owner}${folder}`;
        if (!isBehind(prefix, cursor)) yield* inFolder(prefix);
      }
    }
  }
  for (const prefix of globalFolders) {
    if (!isBehind(prefix, cursor)) yield* inFolder(prefix);
  }
}

/** Where the last run stopped (a key), so the next one goes on from there. */
export const sweepCursorKey = 'maintenance/unreferenced-files-cursor.json';

async function readCursor(storage: Storage): Promise<string | null> {
  const file = await storage.get(sweepCursorKey).catch(() => null);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  try {
    const { after } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { after?: unknown };
    return typeof after === 'string' ? after : null;
  } catch {
    return null;
  }
}

export type SweepOptions = {
  /** The clock (ms); objects written before now − 24 h are candidates. */
  now?: number;
  /** Objects listed at most in one run (default 5,000). */
  maxExamined?: number;
  /** Objects removed at most in one run (default 500). */
  maxRemoved?: number;
  /** Candidates whose references are read in one query (default 200). */
  batchSize?: number;
};

export type SweepSummary = {
  /** Objects listed under the swept folders. */
  examined: number;
  /** Of those, older than 24 h (their references read). */
  old: number;
  /** Old ones a row references (kept). */
  referenced: number;
  removed: number;
  /** Removals that failed (tried again on a later pass). */
  failed: number;
  /** Whether the run reached the end of the folders (the next one starts over). */
  isPassComplete: boolean;
};

/**
 * Removes stored objects under the upload folders that are older than 24 h and referenced by no
 * row. Bounded: it stops after `maxExamined` listed or `maxRemoved` removed and keeps the last
 * key it decided on in storage; the next run goes on after it, and starts over once the end is
 * reached.
 */
export async function removeUnreferencedFiles(
  deps: { db: Database; storage: Storage; lister: StorageLister },
  options: SweepOptions = {},
): Promise<SweepSummary> {
  const now = options.now ?? Date.now();
  const maxExamined = options.maxExamined ?? 5000;
  const maxRemoved = options.maxRemoved ?? 500;
  const batchSize = options.batchSize ?? 200;
  const summary: SweepSummary = {
    examined: 0,
    old: 0,
    referenced: 0,
    removed: 0,
    failed: 0,
    isPassComplete: false,
  };
  const cursor = await readCursor(deps.storage);
  /** The last key decided on: every key up to it was kept, removed, or is too young. */
  let decided: string | null = cursor;
  let lastListed: string | null = null;
  let batch: string[] = [];
  let isStopped = false;

  /**
   * Reads the batch's references and removes the others, in key order; false (and `decided` at
   * the last key done) once the removal budget is spent.
   */
  async function settle(): Promise<boolean> {
    const candidates = batch;
    batch = [];
    const referenced = new Set<string>();
    for (const kind of kinds) {
      const keys = candidates.filter((key) => kindOf(key) === kind);
      if (keys.length === 0) continue;
      for (const key of await kind.referenced(deps.db, keys)) referenced.add(key);
    }
    for (const key of candidates) {
      if (referenced.has(key)) {
        summary.referenced += 1;
      } else {
        if (summary.removed >= maxRemoved) return false;
        try {
          await deps.storage.delete(key);
          summary.removed += 1;
        } catch {
          summary.failed += 1;
        }
      }
      decided = key;
    }
    return true;
  }

  for await (const object of sweptObjects(deps.lister, cursor)) {
    summary.examined += 1;
    lastListed = object.key;
    // Only the keys an upload purpose builds (an odd one is left alone), once a day old.
    const isOld = now - object.modifiedAt > unreferencedFileGraceMs;
    if (isOld && kindOf(object.key)) {
      summary.old += 1;
      batch.push(object.key);
    }
    if (batch.length >= batchSize) {
      if (!(await settle())) {
        isStopped = true;
        break;
      }
    }
    if (batch.length === 0) decided = lastListed;
    if (summary.examined >= maxExamined) {
      isStopped = true;
      break;
    }
  }
  if (batch.length > 0) {
    if (await settle()) decided = lastListed;
    else isStopped = true;
  }
  summary.isPassComplete = !isStopped;
  const next = summary.isPassComplete ? null : decided;
  if (next !== cursor) {
    await deps.storage.put(sweepCursorKey, Buffer.from(JSON.stringify({ after: next })));
  }
  return summary;
}
