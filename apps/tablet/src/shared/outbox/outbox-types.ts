/** What a record does on the server; decides the upload route of its pictures too. */
export type OutboxKind =
  | 'task-result'
  | 'task-create'
  | 'task-postpone'
  | 'punch'
  | 'alert-acknowledge'
  | 'audit-answers'
  | 'audit-submit'
  | 'communication-result'
  | 'training-result'
  | 'shop-order';

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
  /** The send's HTTP method: POST unless said (an audit's answers are a PATCH). */
  method?: 'POST' | 'PATCH';
  /**
   * Where the record's files go when not to its kind's picture route (an audit result's files:
   * their own route, with form fields sent before the file; the answer's `url` replaces the
   * reference). Such files stay on the tablet once sent: the feature that made them removes them.
   */
  upload?: { path: string; fields: Record<string, string> };
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
