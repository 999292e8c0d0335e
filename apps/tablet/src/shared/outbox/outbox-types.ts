/** What a record does on the server; decides the upload route of its pictures too. */
export type OutboxKind =
  | 'task-result'
  | 'task-create'
  | 'task-postpone'
  | 'punch'
  | 'alert-acknowledge';

/**
 * One record made on the tablet, kept in IndexedDB until the server has answered it. The
 * body is what is sent; a picture inside it is the string `local:<picture id>` until
 * uploaded (then the server's storage key replaces it, just before the send).
 */
export type OutboxRecord = {
  seq?: number;
  idempotency_key: string;
  kind: OutboxKind;
  /** API path under /api, e.g. /device/tasks/<id>/result. */
  path: string;
  body: Record<string, unknown>;
  /** The employee who made the record: their token is sent with it. */
  employee_token: string;
  employee_name: string;
  /** What the screen shows for it (a task name, "Clock in"). */
  label: string;
  /** The task it writes, if any (the day list shows it as waiting to send). */
  task_id: string | null;
  created_at: number;
  state: 'waiting' | 'refused';
  attempts: number;
  /** The server's refusal, kept on screen: the record is never dropped silently. */
  refusal: { status: number; code: string; message: string } | null;
};

export type NewOutboxRecord = Omit<
  OutboxRecord,
  'seq' | 'state' | 'attempts' | 'refusal' | 'created_at' | 'idempotency_key'
> & { idempotency_key?: string; created_at?: number };

/** A body value that stands for a picture kept on the tablet. */
export const localPicturePrefix = 'local:';
