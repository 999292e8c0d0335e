import {
  type OutputLevel,
  type OutputLine,
  outputLevels,
  outputRingSize,
  type ProfilingOutputResponse,
} from '@mise/shared/operations/schemas';

/*
 * The instance's recent output (issue 20, the admin screen's Output tab): the last
 * `outputRingSize` lines the pino logger wrote, kept in memory beside stdout (buildApp tees the
 * logger's destination into the ring; stdout is unchanged). Each line gets an increasing
 * sequence number and is stored already redacted and capped, so nothing secret is kept.
 *
 * Redaction works on the parsed line whatever the logger's own `redact` paths were:
 * - a value whose key looks secret (password, token, secret, authorization, cookie, api key,
 *   csrf, session, signature, credential, private key, connection string) becomes
 *   "[Redacted]", at any depth;
 * - in every string: the query parameters of that kind (?token=, &key=, X-Amz-Signature=...),
 *   the password of a URL (scheme://user:password@), Bearer/Basic credentials and argon2 hashes.
 * Strings are cut at 1,024 characters, arrays at 50 items, nesting at depth 8; a line still
 * longer than `maxLineLength` (4 KB) keeps only level, time, pid, hostname, reqId and msg.
 */

export const redacted = '[Redacted]';
const maxStringLength = 1024;
const maxArrayItems = 50;
const maxDepth = 8;
export const defaultMaxLineLength = 4096;

/** Keys whose value is never shown. */
const secretKey =
  /passw(or)?d|passphrase|^pass$|^pwd$|secret|token|authori[sz]ation|cookie|api[-_]?key|private[-_]?key|access[-_]?key|credential|csrf|session|signature|connection[-_]?string|database[-_]?url|^dsn$/i;

/** Query parameters whose value is never shown (login tokens travel as ?token=). */
const secretParameter =
  /([?&;](?:[\w.-]*token|key|api[-_]?key|apikey|secret|password|passwd|pwd|signature|sig|code|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&#\s"']*/gi;
const urlPassword = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/?#\s@"']*:)[^@/?#\s"']*@/gi;
const authorizationValue = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const argon2Hash = /\$argon2(id|i|d)\$[^\s"']*/g;

export function redactText(text: string): string {
  const cut =
    text.length > maxStringLength ? `${text.slice(0, maxStringLength)}…[truncated]` : text;
  return cut
    .replace(secretParameter, `$1${redacted}`)
    .replace(urlPassword, `$1${redacted}@`)
    .replace(authorizationValue, `$1 ${redacted}`)
    .replace(argon2Hash, redacted);
}

/** A copy of a parsed log value with its secrets replaced and its size bounded. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= maxDepth) return '[Object]';
  if (Array.isArray(value)) {
    const items = value.slice(0, maxArrayItems).map((item) => redactValue(item, depth + 1));
    if (value.length > maxArrayItems) items.push(`…${value.length - maxArrayItems} more`);
    return items;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] =
      secretKey.test(key) && item !== null && item !== undefined && item !== ''
        ? redacted
        : redactValue(item, depth + 1);
  }
  return copy;
}

const levelNumbers: Record<OutputLevel, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

/** pino's numeric level (or a level name) as one of the output levels. */
export function levelName(level: unknown): OutputLevel {
  if (typeof level === 'string' && (outputLevels as readonly string[]).includes(level)) {
    return level as OutputLevel;
  }
  const number = typeof level === 'number' ? level : levelNumbers.info;
  let name: OutputLevel = 'trace';
  for (const candidate of outputLevels) if (number >= levelNumbers[candidate]) name = candidate;
  return name;
}

/** One pino line (a JSON text) as an output line, redacted and capped. */
export function toOutputLine(
  text: string,
  seq: number,
  maxLineLength = defaultMaxLineLength,
): OutputLine {
  let parsed: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(text);
    parsed =
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { msg: String(text) };
  } catch {
    // Not JSON (a pretty-printing transport): the text itself is the message.
    parsed = { msg: text };
  }
  const safe = redactValue(parsed) as Record<string, unknown>;
  const level = levelName(safe.level);
  const time =
    typeof safe.time === 'number' || typeof safe.time === 'string'
      ? new Date(safe.time)
      : new Date();
  const msg = typeof safe.msg === 'string' ? safe.msg : '';
  let line = JSON.stringify(safe);
  if (line.length > maxLineLength) {
    const short: Record<string, unknown> = { truncated: true };
    for (const key of ['level', 'time', 'pid', 'hostname', 'reqId']) {
      if (key in safe) short[key] = safe[key];
    }
    short.msg = msg.slice(0, Math.max(0, maxLineLength - 256));
    line = JSON.stringify(short);
  }
  return {
    seq,
    time: Number.isNaN(time.getTime()) ? new Date().toISOString() : time.toISOString(),
    level,
    msg,
    line,
  };
}

export type OutputQuery = {
  /** Only lines whose seq is greater. */
  after?: number;
  /** Only lines at this level or above. */
  level?: OutputLevel;
};

export type OutputRing = {
  /** The logger's destination: pino writes one JSON line (ending with a newline) per call. */
  write(chunk: string | Uint8Array): boolean;
  /** The lines kept, oldest first, filtered; last_seq is the newest line's seq (0: none yet). */
  read(query?: OutputQuery): Omit<ProfilingOutputResponse, 'instance_id'>;
  /** How many lines are kept now. */
  readonly size: number;
};

export function createOutputRing(
  options: { capacity?: number; maxLineLength?: number } = {},
): OutputRing {
  const capacity = options.capacity ?? outputRingSize;
  const maxLineLength = options.maxLineLength ?? defaultMaxLineLength;
  const lines: OutputLine[] = new Array(capacity);
  /** The next slot to write; lines[next] is the oldest once the ring is full. */
  let next = 0;
  let count = 0;
  let lastSeq = 0;

  const push = (text: string) => {
    if (text.trim() === '') return;
    lastSeq += 1;
    lines[next] = toOutputLine(text, lastSeq, maxLineLength);
    next = (next + 1) % capacity;
    count = Math.min(count + 1, capacity);
  };

  return {
    write(chunk) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      try {
        for (const part of text.split('\n')) push(part);
      } catch {
        // The ring never breaks the logger.
      }
      return true;
    },
    read(query = {}) {
      const after = query.after ?? 0;
      const minimum = levelNumbers[query.level ?? 'trace'];
      const items: OutputLine[] = [];
      for (let index = 0; index < count; index++) {
        const line = lines[(next - count + index + capacity) % capacity]!;
        if (line.seq > after && levelNumbers[line.level] >= minimum) items.push(line);
      }
      return { items, last_seq: lastSeq };
    },
    get size() {
      return count;
    },
  };
}

type Destination = {
  write(chunk: string): unknown;
  flush?: (callback?: (error?: Error | null) => void) => void;
  flushSync?: () => void;
};

/** A pino destination writing every line to `target` (stdout, a file, a test's stream) and to the ring. */
export function teeToRing(target: Destination, ring: OutputRing): Destination {
  return {
    write(chunk: string) {
      const result = target.write(chunk);
      ring.write(chunk);
      return result;
    },
    flush: target.flush
      ? (callback?: (error?: Error | null) => void) => target.flush?.(callback)
      : undefined,
    flushSync: target.flushSync ? () => target.flushSync?.() : undefined,
  };
}
