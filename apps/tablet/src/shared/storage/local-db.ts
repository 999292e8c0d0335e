import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { OutboxRecord } from '../outbox/outbox-types';

/** A picture taken on the tablet, kept until the server has it (then its key is known). */
export type StoredPicture = {
  id: string;
  /** The compressed image's bytes (an ArrayBuffer stores the same in every engine's IndexedDB). */
  data: ArrayBuffer;
  type: string;
  /** The file's own name when it is not a camera picture (its extension is checked on upload). */
  name?: string;
  taken_at: number;
  /** The storage key the server answered once uploaded (so a retry never uploads it twice). */
  server_path: string | null;
};

type TabletSchema = DBSchema & {
  /** Small values: the device token and record, the store context, the employee session, caches. */
  kv: { key: string; value: unknown };
  /** Records waiting for the server, in the order they were made (`seq`). */
  outbox: { key: number; value: OutboxRecord; indexes: { by_key: string } };
  pictures: { key: string; value: StoredPicture };
};

const databaseName = 'mise-tablet';
let opened: Promise<IDBPDatabase<TabletSchema>> | null = null;

/** The tablet's IndexedDB database (one per origin), opened once. */
export function localDb(): Promise<IDBPDatabase<TabletSchema>> {
  opened ??= openDB<TabletSchema>(databaseName, 1, {
    upgrade(database) {
      database.createObjectStore('kv');
      const outbox = database.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      outbox.createIndex('by_key', 'idempotency_key', { unique: true });
      database.createObjectStore('pictures', { keyPath: 'id' });
    },
  });
  return opened;
}

/** Closes and forgets the database (tests start each case on a new one). */
export async function resetLocalDbForTests(): Promise<void> {
  if (opened) (await opened).close();
  opened = null;
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(databaseName);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => resolve();
  });
}

export async function readValue<T>(key: string): Promise<T | undefined> {
  return (await (await localDb()).get('kv', key)) as T | undefined;
}

export async function writeValue(key: string, value: unknown): Promise<void> {
  await (await localDb()).put('kv', value, key);
}

export async function deleteValue(key: string): Promise<void> {
  await (await localDb()).delete('kv', key);
}
