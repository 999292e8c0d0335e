import type { HistoryFilter } from '@mise/shared/history/constants';
import { historyIncludes, resultAnomalies, taskAnomalies } from '@mise/shared/history/rules';
import type { HistoryStore } from '@mise/shared/history/schemas';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { addDays, dayInZone, taskStatus } from '@mise/shared/tasks/rules';
import { type SQL, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client';
import { drizzleJsonb, statementRows } from '../../platform/prepared';
import type { Scope } from '../../platform/scope';
import {
  checkRange,
  decodeCursor,
  encodeCursor,
  filterCondition,
  findHistoryStore,
  type HistorySearch,
  searchCondition,
  visibleModules,
} from './history.service';

/*
 * GET /api/stores/:storeId/history written straight as JSON bytes (the busiest stores' pages
 * are the hottest read of the dashboard: 100 tasks, ~180 KB). The page is read by one fixed
 * statement that selects only what a history task shows, the jsonb columns as text and the
 * instants as epoch milliseconds, so neither Drizzle nor the driver maps or parses the rows;
 * the answer is then written into one buffer in the exact shape and key order `searchHistory`
 * (history.service.ts) answers. That one stays the reference: the exports read through it,
 * and history-page.test.ts checks that both answer the same JSON value.
 *
 * The jsonb values are copied as PostgreSQL prints them: a space after each ',' and ':', the
 * numbers with their scale (`3.0`). That is the same JSON value as JSON.stringify's form (what
 * the app stores went through JSON.stringify, so no number overflows a double and no -0 is
 * stored); compacting it cost ~5 % of a page's time for no reader's benefit. A result is parsed
 * only when its anomalies must be listed (`result_anomaly` true, or not yet set).
 */

/** A row of the page statement. */
type PageRow = {
  id: string;
  store_id: string;
  name: string;
  module: TaskModule;
  type_name: string | null;
  type_color: string | null;
  start_ms: number;
  day: string;
  duration: number;
  requires_manager: boolean;
  notify_late: boolean;
  elements: string;
  actions: string;
  configuration_id: string | null;
  store_configuration_id: string | null;
  completed_ms: number | null;
  completed_employee: string | null;
  employee: string | null;
  result: string | null;
  result_anomaly: boolean | null;
  revision: number;
  postponed_task: string | null;
  original_task: string | null;
  copy_start_ms: number | null;
  copy_duration: number | null;
};

const millisecondsPerDay = 86_400_000;
const utcMidnight = (day: string, days: number) => `${addDays(day, days)}T00:00:00.000Z`;

/**
 * The statement of one page: a store's module over a range of its calendar days, the filter
 * and search of `findHistoryTasks` (the same SQL conditions), newest first from the cursor,
 * `limit + 1` rows (the extra one says whether a next page exists). A task starts within its
 * local day and zones are at most 14 hours from UTC, so `start` lies between the range's first
 * day − 1 and its last day + 2 (UTC midnights): bounds the (store, module, start, id) index
 * scans, newest first, without a sort, whatever the range's age. The exact day condition stays,
 * inside `coalesce(…, false)` (the same rows: a WHERE drops null and false alike) so that
 * PostgreSQL does not estimate it: it would multiply its selectivity with the start bounds'
 * (the two describe the same rows), expect a few hundred rows, and read the whole month by
 * (store, day) then sort it — 10 to 50 times slower on the benchmark's busiest store. The
 * search words are wrapped alike: estimated as nearly nothing, they made the month read and
 * sorted even when the first page lay in the newest few hundred tasks (47 ms instead of 9).
 * (A trigram index on the folded search text was tried in issue 13: planned per search, a rare
 * word read it in 0.2 ms, but a common word then took the index too and sorted 850 matches,
 * 44 ms against 2.6 ms for the ordered scan; the ordered scan is kept for every search.)
 * It runs prepared once per connection (statementRows): planning it took more CPU than running
 * it (~1.5 ms against ~1 ms on the benchmark), and its generic plan is that same ordered scan.
 */
export function historyPageQuery(
  store: Pick<HistoryStore, 'id'>,
  options: HistorySearch & { now: Date },
): SQL {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const search = searchCondition(options.search);
  return sql`select tasks.id, tasks.store_id, tasks.name, tasks.module, tasks.type_name, tasks.type_color,
  floor(extract(epoch from tasks.start) * 1000)::float8 as start_ms, tasks.day::text as day,
  tasks.duration, tasks.requires_manager, tasks.notify_late,
  tasks.elements::text as elements, tasks.actions::text as actions,
  tasks.configuration_id, tasks.store_configuration_id,
  floor(extract(epoch from tasks.completed_timestamp) * 1000)::float8 as completed_ms,
  tasks.completed_employee, tasks.employee::text as employee, tasks.result::text as result,
  tasks.result_anomaly, tasks.revision, tasks.postponed_task, tasks.original_task,
  floor(extract(epoch from postponed_copy.start) * 1000)::float8 as copy_start_ms,
  postponed_copy.duration as copy_duration
from tasks left join tasks postponed_copy on postponed_copy.id = tasks.postponed_task
where tasks.store_id = ${store.id} and tasks.module = ${options.module}
  and tasks.start >= ${utcMidnight(options.start, -1)}::timestamptz
  and tasks.start < ${utcMidnight(options.end, 2)}::timestamptz
  and coalesce(tasks.day >= ${options.start} and tasks.day <= ${options.end}, false)
  and ${filterCondition(options.filter, options.now)}${search ? sql` and coalesce(${search}, false)` : sql``}${
    after
      ? sql` and (tasks.start, tasks.id) < (${after.start.toISOString()}::timestamptz, ${after.id}::uuid)`
      : sql``
  }
order by tasks.start desc, tasks.id desc
limit ${options.limit + 1}`;
}

/* ---------- JSON bytes ---------- */

/**
 * The value the old read gave for a jsonb column: the driver parses it, and Drizzle's jsonb
 * column parses a string once more when it holds JSON (a value stored as a JSON string).
 */
function jsonbValue(text: string): unknown {
  return drizzleJsonb(JSON.parse(text));
}

const literals = {
  null: Buffer.from('null'),
  true: Buffer.from('true'),
  false: Buffer.from('false'),
};

/** The constant parts of a task's JSON, in order. */
const taskKeyTexts = {
  id: '{"id":',
  store_id: ',"store_id":',
  name: ',"name":',
  module: ',"module":',
  type_name: ',"type_name":',
  type_color: ',"type_color":',
  start: ',"start":',
  day: ',"day":',
  duration: ',"duration":',
  requires_manager: ',"requires_manager":',
  notify_late: ',"notify_late":',
  elements: ',"elements":',
  actions: ',"actions":',
  configuration_id: ',"configuration_id":',
  store_configuration_id: ',"store_configuration_id":',
  completed_timestamp: ',"completed_timestamp":',
  completed_employee: ',"completed_employee":',
  employee: ',"employee":',
  result: ',"result":',
  revision: ',"revision":',
  postponed_task: ',"postponed_task":',
  original_task: ',"original_task":',
  status: ',"status":',
  anomalies: ',"anomalies":',
  is_anomaly: ',"is_anomaly":',
  postponed_to: ',"postponed_to":',
  copy_start: '{"start":',
  copy_end: ',"end":',
  close: '}',
  comma: ',',
  empty: '[]',
};

/** The same, encoded once. */
const taskKeys = Object.fromEntries(
  Object.entries(taskKeyTexts).map(([key, text]) => [key, Buffer.from(text)]),
) as Record<keyof typeof taskKeyTexts, Buffer>;

/** A growing buffer the answer is written into; ASCII parts byte by byte. */
export class JsonWriter {
  private bytes: Buffer;
  private length = 0;

  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(capacity, 256));
  }

  private reserve(count: number): void {
    if (this.length + count <= this.bytes.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + count));
    this.bytes.copy(larger, 0, 0, this.length);
    this.bytes = larger;
  }

  /** Text known to be ASCII: keys, ids, days, digits. */
  ascii(text: string): void {
    this.reserve(text.length);
    const bytes = this.bytes;
    let at = this.length;
    for (let index = 0; index < text.length; index++) bytes[at++] = text.charCodeAt(index);
    this.length = at;
  }

  utf8(text: string): void {
    this.reserve(text.length * 3);
    this.length += this.bytes.write(text, this.length, 'utf8');
  }

  /** Bytes as they are (the keys, encoded once). */
  raw(bytes: Uint8Array): void {
    const count = bytes.length;
    this.reserve(count);
    if (count > 64) {
      this.bytes.set(bytes, this.length);
      this.length += count;
      return;
    }
    // Keys and literals are short: a loop costs less than set()'s call.
    const target = this.bytes;
    let at = this.length;
    for (let index = 0; index < count; index++) target[at++] = bytes[index]!;
    this.length = at;
  }

  /** A uuid, a day or a code (or null): ASCII with no character to escape. */
  id(value: string | null): void {
    if (value === null) {
      this.raw(literals.null);
      return;
    }
    this.reserve(value.length + 2);
    const bytes = this.bytes;
    let at = this.length;
    bytes[at++] = 34;
    for (let index = 0; index < value.length; index++) bytes[at++] = value.charCodeAt(index);
    bytes[at++] = 34;
    this.length = at;
  }

  /** A number as JSON.stringify writes it (whole numbers digit by digit). */
  number(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      this.ascii(JSON.stringify(value));
      return;
    }
    let count = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) count++;
    this.reserve(count);
    this.length = this.digits(this.length, value, count);
  }

  boolean(value: boolean): void {
    this.raw(value ? literals.true : literals.false);
  }

  /** A string (or null) as JSON.stringify writes it. */
  string(value: string | null): void {
    this.utf8(JSON.stringify(value));
  }

  /** `count` decimal digits of a whole number at `at` (room reserved); answers the next index. */
  private digits(at: number, value: number, count: number): number {
    for (let place = count - 1; place >= 0; place--) {
      this.bytes[at + place] = 48 + (value % 10);
      value = Math.floor(value / 10);
    }
    return at + count;
  }

  /** An instant, as `new Date(milliseconds).toISOString()` in quotes (or null). */
  instant(milliseconds: number | null): void {
    if (milliseconds === null) {
      this.raw(literals.null);
      return;
    }
    // Civil date of a day count (H. Hinnant's days_from_civil inverse).
    const days = Math.floor(milliseconds / millisecondsPerDay);
    let rest = milliseconds - days * millisecondsPerDay;
    const shifted = days + 719_468;
    const era = Math.floor(shifted / 146_097);
    const dayOfEra = shifted - era * 146_097;
    const yearOfEra = Math.floor(
      (dayOfEra -
        Math.floor(dayOfEra / 1460) +
        Math.floor(dayOfEra / 36_524) -
        Math.floor(dayOfEra / 146_096)) /
        365,
    );
    const dayOfYear =
      dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
    const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
    const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
    const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
    const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
    // toISOString writes other years with a sign and six digits.
    if (year < 0 || year > 9999) {
      this.ascii(`"${new Date(milliseconds).toISOString()}"`);
      return;
    }
    const hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
    const minutes = Math.floor(rest / 60_000);
    rest -= minutes * 60_000;
    const seconds = Math.floor(rest / 1000);
    const millis = rest - seconds * 1000;
    this.reserve(26);
    const bytes = this.bytes;
    let at = this.length;
    bytes[at++] = 34;
    at = this.digits(at, year, 4);
    bytes[at++] = 45;
    at = this.digits(at, month, 2);
    bytes[at++] = 45;
    at = this.digits(at, day, 2);
    bytes[at++] = 84;
    at = this.digits(at, hours, 2);
    bytes[at++] = 58;
    at = this.digits(at, minutes, 2);
    bytes[at++] = 58;
    at = this.digits(at, seconds, 2);
    bytes[at++] = 46;
    at = this.digits(at, millis, 3);
    bytes[at++] = 90;
    bytes[at++] = 34;
    this.length = at;
  }

  /**
   * A jsonb column's text (or null) as PostgreSQL prints it: the old read's value. Values met
   * again (a page's tasks share their elements, actions, employees) are copied from `seen`.
   */
  jsonb(text: string | null, seen?: Map<string, Buffer>): void {
    if (text === null) {
      this.raw(literals.null);
      return;
    }
    const known = seen?.get(text);
    if (known) {
      this.reserve(known.length);
      this.length += known.copy(this.bytes, this.length);
      return;
    }
    const start = this.length;
    // A JSON string (see jsonbValue) is rare: taken the old way.
    this.utf8(text.charCodeAt(0) === 34 ? JSON.stringify(jsonbValue(text) ?? null) : text);
    seen?.set(text, Buffer.from(this.bytes.subarray(start, this.length)));
  }

  get size(): number {
    return this.length;
  }

  /** Back to an earlier size (a task the filter leaves out). */
  truncate(size: number): void {
    this.length = size;
  }

  toBuffer(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * What a page's tasks share, kept while it is written: the bytes of jsonb values already
 * written (elements, actions, employees repeat from task to task) and the element snapshots
 * already parsed to list anomalies.
 */
type PageMemo = { written: Map<string, Buffer>; parsed: Map<string, unknown> };

function parsedElements(text: string, parsed: Map<string, unknown>): unknown {
  let value = parsed.get(text);
  if (value === undefined) {
    value = jsonbValue(text);
    parsed.set(text, value);
  }
  return value;
}

/** No result, or a result written without anomaly (`result_anomaly`): no reason to read it. */
const noReasons: never[] = [];

/**
 * Writes one task, the keys in HistoryTask's order (presentHistoryTask); answers false, having
 * written nothing, when the filter's shared rule leaves it out.
 */
function writeTask(
  out: JsonWriter,
  seen: PageMemo,
  row: PageRow,
  now: Date,
  today: string,
  filter: HistoryFilter,
): boolean {
  const status = taskStatus(
    {
      start: new Date(row.start_ms),
      duration: row.duration,
      completedAt: row.completed_ms === null ? null : new Date(row.completed_ms),
      postponed: row.postponed_task !== null,
    },
    now,
    row.day === today,
  );
  const reasons =
    row.result === null || row.result_anomaly === false
      ? noReasons
      : resultAnomalies(
          row.module,
          parsedElements(row.elements, seen.parsed) as Parameters<typeof resultAnomalies>[1],
          jsonbValue(row.result),
        );
  const anomalies = taskAnomalies(status, reasons);
  const isAnomaly = anomalies.length > 0;
  if (!historyIncludes(status, isAnomaly, filter)) return false;
  const key = taskKeys;
  out.raw(key.id);
  out.id(row.id);
  out.raw(key.store_id);
  out.id(row.store_id);
  out.raw(key.name);
  out.string(row.name);
  out.raw(key.module);
  out.id(row.module);
  out.raw(key.type_name);
  out.string(row.type_name);
  out.raw(key.type_color);
  out.string(row.type_color);
  out.raw(key.start);
  out.instant(row.start_ms);
  out.raw(key.day);
  out.id(row.day);
  out.raw(key.duration);
  out.number(row.duration);
  out.raw(key.requires_manager);
  out.boolean(row.requires_manager);
  out.raw(key.notify_late);
  out.boolean(row.notify_late);
  out.raw(key.elements);
  out.jsonb(row.elements, seen.written);
  out.raw(key.actions);
  out.jsonb(row.actions, seen.written);
  out.raw(key.configuration_id);
  out.id(row.configuration_id);
  out.raw(key.store_configuration_id);
  out.id(row.store_configuration_id);
  out.raw(key.completed_timestamp);
  out.instant(row.completed_ms);
  out.raw(key.completed_employee);
  out.id(row.completed_employee);
  out.raw(key.employee);
  out.jsonb(row.employee, seen.written);
  out.raw(key.result);
  out.jsonb(row.result);
  out.raw(key.revision);
  out.number(row.revision);
  out.raw(key.postponed_task);
  out.id(row.postponed_task);
  out.raw(key.original_task);
  out.id(row.original_task);
  out.raw(key.status);
  out.id(status);
  out.raw(key.anomalies);
  if (anomalies.length === 0) out.raw(key.empty);
  else out.ascii(JSON.stringify(anomalies));
  out.raw(key.is_anomaly);
  out.boolean(isAnomaly);
  out.raw(key.postponed_to);
  if (row.copy_start_ms !== null && row.copy_duration !== null) {
    out.raw(key.copy_start);
    out.instant(row.copy_start_ms);
    out.raw(key.copy_end);
    out.instant(row.copy_start_ms + row.copy_duration * 60_000);
    out.raw(key.close);
  } else {
    out.raw(literals.null);
  }
  out.raw(key.close);
  return true;
}

/**
 * GET /api/stores/:storeId/history as JSON (UTF-8 bytes): the same checks as `searchHistory`
 * (range, store access, visible module) and the same answer as JSON (value and key order).
 */
export async function searchHistoryJson(
  database: DatabaseHandle,
  scope: Scope,
  storeId: string,
  query: HistorySearch,
  now: Date = new Date(),
): Promise<Buffer> {
  checkRange(query.start, query.end);
  const store = await findHistoryStore(database.db, scope, storeId);
  const rows = visibleModules(store).includes(query.module)
    ? await statementRows<PageRow>(
        database,
        historyPageQuery(store, { ...query, now }),
        'history_page',
      )
    : [];
  const count = Math.min(rows.length, query.limit);
  // The cursor of the page's last task, whether the filter's rule shows it or not.
  const last = rows.length > query.limit ? rows[count - 1] : undefined;
  const nextCursor = last
    ? encodeCursor({ start: new Date(last.start_ms).toISOString(), id: last.id })
    : null;
  let capacity = 512;
  for (let index = 0; index < count; index++) {
    const row = rows[index]!;
    capacity +=
      900 + row.elements.length + row.actions.length + (row.result?.length ?? 0) + row.name.length;
  }
  const out = new JsonWriter(capacity);
  out.utf8(
    `{"store":${JSON.stringify(store)},"start":${JSON.stringify(query.start)},"end":${JSON.stringify(query.end)},"module":${JSON.stringify(query.module)},"filter":${JSON.stringify(query.filter)},"items":[`,
  );
  const today = dayInZone(now, store.timezone_name);
  const seen: PageMemo = { written: new Map(), parsed: new Map() };
  let isFirst = true;
  for (let index = 0; index < count; index++) {
    const before = out.size;
    if (!isFirst) out.raw(taskKeys.comma);
    if (writeTask(out, seen, rows[index]!, now, today, query.filter)) isFirst = false;
    else out.truncate(before);
  }
  out.ascii(`],"next_cursor":${JSON.stringify(nextCursor)}}`);
  return out.toBuffer();
}
