import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** An empty variable (`DATABASE_URL=`) counts as unset. */
const optionalText = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.string().min(1).optional(),
);

/** A whole number 0 or more; empty or unset means the default. */
const optionalCount = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.coerce.number().int().min(0).optional(),
);

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    /** A real PostgreSQL server; unset means the embedded PGlite database in DATA_DIR. */
    DATABASE_URL: optionalText,
    DATA_DIR: z.string().default('./data'),
    /** smtp://user:pass@host:port; unset means messages are logged and kept in the outbox. */
    SMTP_URL: optionalText,
    MAIL_FROM: z.string().default('Mise <no-reply@mise.local>'),
    /** The address users reach the web app at: mailed links are built from it, never from Host. */
    PUBLIC_URL: z.preprocess((value) => (value === '' ? undefined : value), z.url().optional()),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** The version this instance reports on the admin screen (default: the git commit, if any). */
    MISE_VERSION: optionalText,
    /** Seed the demo organisation on a real PostgreSQL server too (always on for PGlite). */
    SEED_DEMO: booleanFlag,
    /** Behind a reverse proxy: trust X-Forwarded-* for the client address. */
    TRUST_PROXY: booleanFlag,
    /** Cookies flagged Secure (default: when PUBLIC_URL is https). */
    COOKIE_SECURE: z.enum(['true', 'false']).optional(),
    /** The licence-monitoring server; unset means the local implementation (always accepts). */
    LICENCE_MONITORING_URL: optionalText,
    /** The sensor provider's API (Koovea); unset means the local implementation. */
    SENSOR_PROVIDER_URL: optionalText,
    /** Pexels API key for the element illustration's stock image search; unset disables it. */
    STOCK_IMAGES_API_KEY: optionalText,
    /** The stock image API's base URL (default https://api.pexels.com). */
    STOCK_IMAGES_URL: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.url({ protocol: /^https?$/ }).optional(),
    ),
    /**
     * The video host (gcore-style, spec 002 §7), with VIDEO_HOST_API_KEY; unset means the local
     * host (videos stay in our storage and play from our own file address).
     */
    VIDEO_HOST_URL: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.url({ protocol: /^https?$/ }).optional(),
    ),
    VIDEO_HOST_API_KEY: optionalText,
    /**
     * Origins the browser may send videos to and play them from when an outside video host is
     * set (its upload servers and links, e.g. `https://*.gcore.com https://*.gvideo.io`),
     * separated by spaces: added to the CSP's connect-src and media-src. They cannot be derived
     * from VIDEO_HOST_URL: each upload ticket names its own upload server.
     */
    VIDEO_HOST_ORIGINS: z.preprocess(
      (value) => (typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : []),
      z
        .array(
          z
            .string()
            .regex(
              /^https:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?$/i,
              'an https origin, optionally with a leading *. (https://*.example.com)',
            ),
        )
        .max(20),
    ),
    /** Web Push (VAPID) keys, base64url; unset: a pair made once in DATA_DIR/vapid.json. */
    VAPID_PUBLIC_KEY: optionalText,
    VAPID_PRIVATE_KEY: optionalText,
    /** mailto: or https: contact the push services see; default PUBLIC_URL when https. */
    VAPID_SUBJECT: optionalText,
    /**
     * The key signing the records chain's retention tombstones (32 characters or more, never
     * logged); unset: one made once in DATA_DIR/records-signing.key. Set it when several
     * instances share a database, and keep it with the backups: the verifier needs it.
     */
    RECORDS_SIGNING_KEY: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().min(32).optional(),
    ),
    /** Months of probe readings kept (EU 852/2004 records: at least 24). */
    PROBE_RETENTION_MONTHS: z.coerce.number().int().min(24).max(240).default(36),
    DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** Where stored files go: `local` (DATA_DIR/files) or `s3` (an S3-compatible bucket). */
    STORAGE_DRIVER: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(['local', 's3']).default('local'),
    ),
    S3_BUCKET: optionalText,
    /** An S3-compatible server's address (MinIO, Garage, Ceph…); unset means AWS S3. */
    S3_ENDPOINT: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.url({ protocol: /^https?$/ }).optional(),
    ),
    S3_REGION: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().default('us-east-1'),
    ),
    /** Both or neither: unset means the SDK's default credential chain (instance role…). */
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    /** Path-style addresses (http://host/bucket/key), as MinIO-like servers need. */
    S3_FORCE_PATH_STYLE: booleanFlag,
    /**
     * The Bearer token Prometheus sends to GET /metrics (16 characters or more, never logged);
     * unset means /metrics answers 404.
     */
    METRICS_TOKEN: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().min(16).optional(),
    ),
    /**
     * Load shedding: above any of these the server answers 503 'server/overloaded' (with
     * Retry-After) instead of serving, except /api/health, /api/ready and /metrics. 0 turns a
     * check off. Unset: event-loop delay 1000 ms, heap 90% of V8's heap limit, RSS off (set it
     * from the container's memory limit); with NODE_ENV=test all off (platform/health.ts).
     */
    LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: optionalCount,
    LOAD_SHEDDING_MAX_HEAP_USED_MB: optionalCount,
    LOAD_SHEDDING_MAX_RSS_MB: optionalCount,
  })
  .superRefine((env, context) => {
    // The video host needs both its address and its key.
    if ((env.VIDEO_HOST_URL === undefined) !== (env.VIDEO_HOST_API_KEY === undefined)) {
      const missing = env.VIDEO_HOST_URL === undefined ? 'VIDEO_HOST_URL' : 'VIDEO_HOST_API_KEY';
      context.addIssue({
        code: 'custom',
        path: [missing],
        message:
          'is required with VIDEO_HOST_URL / VIDEO_HOST_API_KEY: set both, or neither to keep videos in our storage',
      });
    }
    const s3Variables = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];
    if (env.STORAGE_DRIVER === 'local') {
      for (const name of s3Variables) {
        if (env[name as keyof typeof env] !== undefined) {
          context.addIssue({
            code: 'custom',
            path: [name],
            message: 'is set but STORAGE_DRIVER is not s3 (set STORAGE_DRIVER=s3 or unset it)',
          });
        }
      }
      return;
    }
    if (!env.S3_BUCKET) {
      context.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'is required when STORAGE_DRIVER=s3',
      });
    }
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      const missing =
        env.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
      context.addIssue({
        code: 'custom',
        path: [missing],
        message:
          'is required with S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both, or neither to use the default AWS credential chain',
      });
    }
  })
  .transform((env) => {
    const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
    return {
      ...env,
      PUBLIC_URL: publicUrl,
      isCookieSecure:
        env.COOKIE_SECURE === undefined
          ? publicUrl.startsWith('https://')
          : env.COOKIE_SECURE === 'true',
      storage: storageOf(env),
    };
  });

export type StorageConfig =
  | { driver: 'local' }
  | {
      driver: 's3';
      bucket: string;
      endpoint?: string;
      region: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
    };

function storageOf(env: {
  STORAGE_DRIVER: 'local' | 's3';
  S3_BUCKET?: string;
  S3_ENDPOINT?: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
}): StorageConfig {
  if (env.STORAGE_DRIVER === 'local') return { driver: 'local' };
  return {
    driver: 's3',
    bucket: env.S3_BUCKET!,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  };
}

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
