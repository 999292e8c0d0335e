/**
 * The tablet's outbox after a long network cut (not a test): the tablet app's own outbox code
 * (apps/tablet/src/shared/outbox, IndexedDB through fake-indexeddb in Node) against the built
 * server on a fresh embedded demo database. While "offline" (every request fails), an employee
 * makes 70 temperature-control starts and 30 traceability records with one picture each
 * (1600 px JPEG, as the tablet compresses them): 100 records and 30 pictures waiting. Then the
 * network returns and the time until the last is accepted is measured. One answer in ten is
 * lost on the way back (the server wrote it, the tablet never heard): the retry carries the same
 * idempotency key. At the end the server is asked how many tasks and revisions exist.
 *
 *   npm run build && node --import tsx bench/tablet-sync.ts
 */
import 'fake-indexeddb/auto';
import sharp from 'sharp';
import { setDeviceToken } from '../apps/tablet/src/shared/device/device-token';
import {
  enqueue,
  flushOutbox,
  networkReturned,
  outboxSnapshot,
  storePicture,
} from '../apps/tablet/src/shared/outbox/outbox';
import { startBuiltServer } from './browser-support';
import { demoTablet, pairDevice } from './tablet-support';

const port = Number(process.env.TABLET_SYNC_PORT ?? 3331);
const controls = 70;
const traceability = 30;

const server = await startBuiltServer(port);
try {
  const tablet = await demoTablet(server.base);
  const token = await pairDevice(tablet, 'bench-sync-tablet');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const employees = (await (
    await fetch(`${server.base}/api/device/employees`, { headers })
  ).json()) as { items: { id: string; name: string }[] };
  const lucas = employees.items.find((employee) => employee.name === 'Lucas')!;
  const login = (await (
    await fetch(`${server.base}/api/device/employees/${lucas.id}/authenticate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ pin: '1234' }),
    })
  ).json()) as { employee_token: string };
  const elements = (await (
    await fetch(`${server.base}/api/device/elements`, { headers })
  ).json()) as {
    items: {
      id: string;
      name: string;
      modules: { traceability: boolean; temperature_control: boolean };
      cooling_temperature: number | null;
    }[];
  };
  const controlElement = elements.items.find((element) => element.modules.temperature_control);
  const traceElement = elements.items.find((element) => element.modules.traceability);
  if (!controlElement || !traceElement)
    throw new Error(
      'the demo store needs an element with temperature control and one with traceability',
    );

  // The tablet's network: off, then on with one answer in ten lost after the server wrote it.
  let isOnline = false;
  let requests = 0;
  let lostAnswers = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    if (!isOnline) throw new TypeError('Failed to fetch');
    const url =
      typeof input === 'string' && input.startsWith('/') ? `${server.base}${input}` : input;
    const response = await realFetch(url, init);
    requests += 1;
    if (requests % 10 === 0 && init?.method === 'POST' && !String(input).includes('pictures')) {
      lostAnswers += 1;
      throw new TypeError('Failed to fetch');
    }
    return response;
  }) as typeof fetch;

  await setDeviceToken(token);
  // A photo-like picture: blurred noise compresses about as a kitchen photo does.
  const noise = Buffer.alloc(1600 * 1200 * 3);
  for (let index = 0; index < noise.length; index += 1)
    noise[index] = Math.floor(Math.random() * 256);
  const picture = await sharp(noise, { raw: { width: 1600, height: 1200, channels: 3 } })
    .blur(1.5)
    .jpeg({ quality: 80 })
    .toBuffer();
  const session = { employee_token: login.employee_token, employee_name: 'Lucas Martin' };
  const taskIds: string[] = [];
  for (let index = 0; index < controls + traceability; index += 1) {
    const id = crypto.randomUUID();
    taskIds.push(id);
    const isControl = index < controls;
    const result = isControl
      ? {
          entries: [
            {
              element: controlElement.id,
              mode: 'cooling',
              target_temperature: controlElement.cooling_temperature,
              start_temperature: 70 - (index % 10),
              start_timestamp: Math.floor(Date.now() / 1000),
              end_temperature: null,
              end_timestamp: null,
              comment: '',
            },
          ],
        }
      : {
          entries: [
            {
              element: traceElement.id,
              pictures: [
                {
                  path: await storePicture(
                    new Blob([new Uint8Array(picture)], { type: 'image/jpeg' }),
                  ),
                  timestamp: Math.floor(Date.now() / 1000),
                },
              ],
            },
          ],
        };
    await enqueue({
      kind: 'task-create',
      path: '/device/tasks',
      body: {
        id,
        module: isControl ? 'temperature_control' : 'traceability',
        element: isControl ? controlElement.id : traceElement.id,
        result,
      },
      ...session,
      label: isControl ? controlElement.name : traceElement.name,
      task_id: id,
    });
  }
  await flushOutbox();
  console.log(
    `Offline: ${outboxSnapshot().waiting.length} records waiting, ${traceability} pictures (${(picture.length / 1024).toFixed(0)} KB each)`,
  );

  isOnline = true;
  const started = performance.now();
  await networkReturned();
  // Lost answers put the round on hold (backoff); the next round sends what is left.
  while (outboxSnapshot().waiting.length > 0)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const seconds = (performance.now() - started) / 1000;
  globalThis.fetch = realFetch;

  const day = (await (await fetch(`${server.base}/api/device/tasks`, { headers })).json()) as {
    items: { id: string; revision: number }[];
  };
  const ours = day.items.filter((task) => taskIds.includes(task.id));
  const revisions = ours.reduce((total, task) => total + task.revision, 0);
  console.log(
    `Network back: ${controls + traceability} records and ${traceability} pictures sent in ${seconds.toFixed(1)} s ` +
      `(${lostAnswers} answers lost and retried); refused ${outboxSnapshot().refused.length}; ` +
      `on the server: ${ours.length} tasks, ${revisions} revisions (duplicates: ${ours.length - taskIds.length + revisions - ours.length})`,
  );
} finally {
  await server.stop();
}
