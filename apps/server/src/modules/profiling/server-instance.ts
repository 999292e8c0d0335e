import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { profilingSampleMs, profilingWindowSize } from '@mise/shared/operations/schemas';
import type { DatabaseHandle } from '../../db/client';
import { createInstanceRelay, type InstanceRelay } from './instance-relay';
import type { OutputRing } from './output-ring';
import { createProcessSampler, type ProcessSampler } from './process-sampler';
import {
  type InstanceIdentity,
  pruneInstances,
  recordHeartbeat,
  recordSnapshot,
  recordStopped,
} from './profiling.service';

/*
 * This server process as one of Mise's instances (issue 20): a random id for the process's
 * life, its heartbeat in server_instances, its profiling snapshots, its output ring, and the
 * relay through which it answers the other instances. buildApp makes it; main.ts starts it
 * once the server listens (`app.profiling.start()`); app.close() stops it.
 */

/** The heartbeat refreshes last_seen_at this often (an instance is live for instanceLiveMs). */
export const heartbeatMs = 5_000;
/** Forgotten instances and unread replies are pruned this often. */
export const pruneMs = 60_000;

type Logger = { warn(object: object, message: string): void };

export type StartOptions = {
  /** Default profilingSampleMs (tests: a few milliseconds). */
  sampleMs?: number;
  /** Default heartbeatMs. */
  heartbeatMs?: number;
  /** Snapshots kept (default profilingWindowSize). */
  windowSize?: number;
  sampler?: ProcessSampler;
};

export type ServerInstance = {
  readonly identity: InstanceIdentity;
  readonly ring: OutputRing;
  readonly relay: InstanceRelay;
  readonly isStarted: boolean;
  /** Records the heartbeat, listens to the other instances, samples; returns once registered. */
  start(options?: StartOptions): Promise<void>;
  /** Stops the timers, marks the instance stopped, stops listening (idempotent). */
  stop(): Promise<void>;
};

/**
 * The version an instance reports: MISE_VERSION when the deployment sets it, else the git
 * commit of the working copy it runs from, else "unknown".
 */
export function instanceVersion(configured?: string, root = process.cwd()): string {
  if (configured) return configured;
  try {
    const head = readFileSync(join(root, '.git', 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head.slice(0, 12);
    const ref = head.slice(5);
    try {
      return readFileSync(join(root, '.git', ref), 'utf8')
        .trim()
        .slice(0, 12);
    } catch {
      const packed = readFileSync(join(root, '.git', 'packed-refs'), 'utf8');
      const line = packed.split('\n').find((entry) => entry.endsWith(` ${ref}`));
      if (line) return line.slice(0, 12);
    }
  } catch {
    // Not a git working copy.
  }
  return 'unknown';
}

export function createServerInstance(options: {
  database: DatabaseHandle;
  ring: OutputRing;
  version?: string;
  relayTimeoutMs?: number;
  log?: Logger;
}): ServerInstance {
  const { database, ring, log } = options;
  const { db } = database;
  const identity: InstanceIdentity = {
    id: randomUUID(),
    host: hostname(),
    version: instanceVersion(options.version),
    pid: process.pid,
    startedAt: new Date(),
  };
  const relay = createInstanceRelay({
    database,
    instanceId: identity.id,
    timeoutMs: options.relayTimeoutMs,
    log,
    answer: (question) => {
      switch (question.kind) {
        case 'output':
          return { instance_id: identity.id, ...ring.read(question) };
      }
    },
  });

  const timers: NodeJS.Timeout[] = [];
  /** The timers' work in flight, awaited by stop(). */
  const inFlight = new Set<Promise<void>>();
  let isStarted = false;
  let isStopped = false;

  /** Runs one timer's work unless the previous run of the same work is still going. */
  const every = (ms: number, name: string, work: () => Promise<void>) => {
    let isBusy = false;
    const timer = setInterval(() => {
      if (isBusy || isStopped) return;
      isBusy = true;
      const running = work()
        .catch((error: unknown) => log?.warn({ err: error }, `instance ${name} failed`))
        .finally(() => {
          isBusy = false;
          inFlight.delete(running);
        });
      inFlight.add(running);
    }, ms);
    timer.unref();
    timers.push(timer);
  };

  return {
    identity,
    ring,
    relay,
    get isStarted() {
      return isStarted;
    },
    async start(startOptions = {}) {
      if (isStarted || isStopped) return;
      isStarted = true;
      await recordHeartbeat(db, identity);
      await pruneInstances(db);
      await relay.listen();
      const sampler = startOptions.sampler ?? createProcessSampler();
      const windowSize = startOptions.windowSize ?? profilingWindowSize;
      every(startOptions.heartbeatMs ?? heartbeatMs, 'heartbeat', () =>
        recordHeartbeat(db, identity),
      );
      every(startOptions.sampleMs ?? profilingSampleMs, 'sample', () =>
        recordSnapshot(db, identity.id, sampler.sample(), new Date(), windowSize),
      );
      every(pruneMs, 'prune', () => pruneInstances(db));
    },
    async stop() {
      if (isStopped) return;
      isStopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...inFlight]);
      await relay.close();
      if (isStarted) {
        await recordStopped(db, identity.id).catch((error: unknown) =>
          log?.warn({ err: error }, 'instance stop not recorded'),
        );
      }
    },
  };
}
