import { ApiError, apiRequest, NetworkError } from '../api/client';
import { localDb, type StoredPicture } from '../storage/local-db';
import {
  localPicturePrefix,
  type NewOutboxRecord,
  type OutboxKind,
  type OutboxRecord,
} from './outbox-types';

/*
 * The outbox: every record is written here first (IndexedDB), then sent in the order it was
 * made, each with its idempotency key, so a retry after a lost answer or a double tap writes
 * once. A network failure stops the round and retries later (backoff); a refusal of the
 * server (4xx) is kept with its reason and the next records go on.
 */

export type OutboxSnapshot = {
  waiting: OutboxRecord[];
  refused: OutboxRecord[];
  isSending: boolean;
  /** When the last round stopped on a network failure (ms epoch), else null. */
  offlineSince: number | null;
};

const listeners = new Set<() => void>();
let snapshot: OutboxSnapshot = { waiting: [], refused: [], isSending: false, offlineSince: null };

function publish(next: Partial<OutboxSnapshot>): void {
  snapshot = { ...snapshot, ...next };
  for (const listener of listeners) listener();
}

export function subscribeOutbox(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function outboxSnapshot(): OutboxSnapshot {
  return snapshot;
}

/** Reads the records from IndexedDB into the snapshot the screens show. */
export async function refreshOutbox(): Promise<void> {
  const records = await (await localDb()).getAll('outbox');
  publish({
    waiting: records.filter((record) => record.state === 'waiting'),
    refused: records.filter((record) => record.state === 'refused'),
  });
}

/** Keeps a picture on the tablet; the answer is what a record's body holds in its place. */
export async function storePicture(
  blob: Blob,
  takenAt = Date.now(),
  name?: string,
): Promise<string> {
  const picture: StoredPicture = {
    id: crypto.randomUUID(),
    data: await blob.arrayBuffer(),
    type: blob.type || 'image/jpeg',
    ...(name ? { name } : {}),
    taken_at: takenAt,
    server_path: null,
  };
  await (await localDb()).put('pictures', picture);
  return `${localPicturePrefix}${picture.id}`;
}

export async function readPicture(reference: string): Promise<StoredPicture | undefined> {
  if (!reference.startsWith(localPicturePrefix)) return undefined;
  return (await localDb()).get('pictures', reference.slice(localPicturePrefix.length));
}

/** A kept picture as a Blob (for a preview's object URL, or the upload). */
export function pictureBlob(picture: StoredPicture): Blob {
  return new Blob([picture.data], { type: picture.type });
}

/**
 * Kinds whose route takes no idempotency key in its (strict) body: writes that happen once by
 * nature (an alert is acknowledged once; a second try answers 409, counted as done below; an
 * audit answer replaces its question's, and a second submission answers the submitted result).
 */
const keylessKinds: ReadonlySet<OutboxKind> = new Set([
  'alert-acknowledge',
  'audit-answers',
  'audit-submit',
]);

/** Refusals that mean the record's work is already done on the server: the record is sent. */
const doneCodes: Partial<Record<OutboxKind, readonly string[]>> = {
  'alert-acknowledge': ['alert/already-acknowledged'],
};

/** The answer handed to `onRecordSent` when the server said the work was already done. */
export type AlreadyDoneAnswer = { already_done: { code: string; message: string } };

/** Saves a record at once (it survives a reload or a crash) and starts sending. */
export async function enqueue(record: NewOutboxRecord): Promise<OutboxRecord> {
  const key = record.idempotency_key ?? crypto.randomUUID();
  const stored: OutboxRecord = {
    ...record,
    // The key travels in the body too: the server applies a key once.
    body: keylessKinds.has(record.kind) ? record.body : { ...record.body, idempotency_key: key },
    idempotency_key: key,
    created_at: record.created_at ?? Date.now(),
    state: 'waiting',
    attempts: 0,
    refusal: null,
  };
  const seq = await (await localDb()).add('outbox', stored);
  await refreshOutbox();
  void flushOutbox();
  return { ...stored, seq };
}

/** Puts a refused record back in the queue (same key: the server still writes it once). */
export async function retryRecord(seq: number): Promise<void> {
  const database = await localDb();
  const record = await database.get('outbox', seq);
  if (!record) return;
  await database.put('outbox', { ...record, state: 'waiting', refusal: null });
  await refreshOutbox();
  void flushOutbox();
}

/** Removes a refused record the employee has read and dismissed (with its pictures). */
export async function discardRecord(seq: number): Promise<void> {
  const database = await localDb();
  const record = await database.get('outbox', seq);
  if (record?.state !== 'refused') return;
  await deletePictures(record);
  await database.delete('outbox', seq);
  await refreshOutbox();
}

function pictureReferences(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string' && value.startsWith(localPicturePrefix)) found.push(value);
  else if (Array.isArray(value)) for (const item of value) pictureReferences(item, found);
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) pictureReferences(item, found);
  return found;
}

function replaceReferences(value: unknown, paths: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return paths.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => replaceReferences(item, paths));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, replaceReferences(item, paths)]),
    );
  return value;
}

async function deletePictures(record: OutboxRecord): Promise<void> {
  // Files with their own upload route belong to the feature that made them (see `upload`).
  if (record.upload) return;
  const database = await localDb();
  for (const reference of pictureReferences(record.body))
    await database.delete('pictures', reference.slice(localPicturePrefix.length));
}

const uploadPath: Record<OutboxKind, string> = {
  'task-result': '/device/pictures',
  'task-create': '/device/pictures',
  'task-postpone': '/device/pictures',
  punch: '/device/selfies',
  'alert-acknowledge': '/device/pictures',
  // Audit files always name their route (record.upload).
  'audit-answers': '/device/pictures',
  'audit-submit': '/device/pictures',
  // A communication's steps carry no file.
  'communication-result': '/device/pictures',
  // Nor do a training's.
  'training-result': '/device/pictures',
  // Nor does a shop order.
  'shop-order': '/device/pictures',
};

/** Uploads the record's pictures not yet on the server; each server key is kept at once. */
async function uploadPictures(record: OutboxRecord): Promise<Map<string, string>> {
  const database = await localDb();
  const paths = new Map<string, string>();
  for (const reference of pictureReferences(record.body)) {
    const picture = await database.get('pictures', reference.slice(localPicturePrefix.length));
    if (!picture)
      throw new ApiError(400, 'picture/missing', 'The picture is no longer on this tablet.');
    if (!picture.server_path) {
      const form = new FormData();
      for (const [field, value] of Object.entries(record.upload?.fields ?? {}))
        form.append(field, value);
      const extension =
        picture.type === 'image/webp' ? 'webp' : picture.type === 'image/png' ? 'png' : 'jpg';
      form.append('file', pictureBlob(picture), picture.name ?? `${picture.id}.${extension}`);
      const uploaded = await apiRequest<{ path: string } | { url: string }>(
        record.upload?.path ?? uploadPath[record.kind],
        {
          method: 'POST',
          formData: form,
          employeeToken: record.employee_token,
          timeoutMs: 60_000,
        },
      );
      picture.server_path = 'path' in uploaded ? uploaded.path : uploaded.url;
      await database.put('pictures', picture);
    }
    paths.set(reference, picture.server_path);
  }
  return paths;
}

/** Delays after consecutive network failures, in ms (then the last one, until online). */
export const retryDelays = [1000, 2000, 5000, 10_000, 30_000] as const;
let failures = 0;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let running: Promise<void> | null = null;
const sentListeners = new Set<(record: OutboxRecord, answer: unknown) => void>();

/** Called with each record the server accepted and its answer (the day list updates). */
export function onRecordSent(listener: (record: OutboxRecord, answer: unknown) => void) {
  sentListeners.add(listener);
  return () => sentListeners.delete(listener);
}

function scheduleRetry(): void {
  if (retryTimer) clearTimeout(retryTimer);
  const delay = retryDelays[Math.min(failures, retryDelays.length) - 1] ?? retryDelays[0];
  retryTimer = setTimeout(() => {
    retryTimer = null;
    void flushOutbox();
  }, delay);
}

/** The network came back during a round: another round follows it at once. */
let isRoundAgain = false;

/** Sends the waiting records in order; one round at a time (a call during a round joins it). */
export function flushOutbox(): Promise<void> {
  running ??= sendRound().finally(() => {
    running = null;
    if (isRoundAgain) {
      isRoundAgain = false;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      void flushOutbox();
    }
  });
  return running;
}

/** The network is back: forget the backoff and send now. */
export function networkReturned(): Promise<void> {
  failures = 0;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  // A round still running may have started offline: it is followed by a fresh one, not by the
  // backoff its failure would schedule.
  if (running) {
    isRoundAgain = true;
    return running.then(() => running ?? flushOutbox());
  }
  return flushOutbox();
}

/**
 * Writes a record's new state back, unless it was removed while it was being sent (an audit
 * answer replaced by a later one): a removed record is not brought back.
 */
async function writeBackIfKept(seq: number, change: Partial<OutboxRecord>): Promise<void> {
  const transaction = (await localDb()).transaction('outbox', 'readwrite');
  const current = await transaction.store.get(seq);
  if (current) await transaction.store.put({ ...current, ...change });
  await transaction.done;
}

async function sendRound(): Promise<void> {
  const database = await localDb();
  publish({ isSending: true });
  try {
    for (;;) {
      // Read again each time: records are added while the round runs.
      const next = (await database.getAll('outbox')).find((record) => record.state === 'waiting');
      if (!next) break;
      try {
        const paths = await uploadPictures(next);
        const answer = await apiRequest<unknown>(next.path, {
          method: next.method ?? 'POST',
          body: replaceReferences(next.body, paths),
          employeeToken: next.employee_token,
        });
        await deletePictures(next);
        await database.delete('outbox', next.seq!);
        failures = 0;
        publish({ offlineSince: null });
        for (const listener of sentListeners) listener(next, answer);
      } catch (error) {
        if (error instanceof ApiError && doneCodes[next.kind]?.includes(error.code)) {
          // Someone else did it first (or our first answer was lost): done, not refused.
          await deletePictures(next);
          await database.delete('outbox', next.seq!);
          failures = 0;
          publish({ offlineSince: null });
          const answer: AlreadyDoneAnswer = {
            already_done: { code: error.code, message: error.message },
          };
          for (const listener of sentListeners) listener(next, answer);
          await refreshOutbox();
          continue;
        }
        if (
          error instanceof ApiError &&
          error.status !== 429 &&
          error.code !== 'auth/unauthenticated'
        ) {
          await writeBackIfKept(next.seq!, {
            attempts: next.attempts + 1,
            state: 'refused',
            refusal: { status: error.status, code: error.code, message: error.message },
          });
          await refreshOutbox();
          continue;
        }
        // No answer (or asked to wait): keep the record as it is, try again later.
        await writeBackIfKept(next.seq!, { attempts: next.attempts + 1 });
        failures += 1;
        publish({ offlineSince: snapshot.offlineSince ?? Date.now() });
        scheduleRetry();
        if (!(error instanceof NetworkError) && !(error instanceof ApiError)) throw error;
        break;
      }
      await refreshOutbox();
    }
  } finally {
    await refreshOutbox();
    publish({ isSending: false });
  }
}

/** Clears the retry timer and the failure count (tests). */
export function resetOutboxStateForTests(): void {
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  failures = 0;
  running = null;
  isRoundAgain = false;
  snapshot = { waiting: [], refused: [], isSending: false, offlineSince: null };
}
