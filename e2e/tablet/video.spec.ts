import { readFileSync } from 'node:fs';
import type { Page, Request, Response } from '@playwright/test';
import { demoCatalogue, uniqueElementName } from '../support/catalogue';
import {
  demoStore,
  demoTablet,
  e2eTabletPrefix,
  expect,
  identify,
  pairTablet,
  test,
  waitForServiceWorker,
} from '../support/tablet';

/*
 * Videos stream on the tablet (issue 17): a <video> cannot send the device token, so the
 * app's service worker (apps/tablet/public/media-auth.js) adds it to the player's requests for
 * /api/files/ and passes the Range header through; the server answers 206 Partial Content
 * and the player reads the metadata, then plays and seeks, without the app reading the whole
 * file first.
 *
 * e2e/fixtures/clip.mp4: a real 2-second H.264 clip, 160×90, 8.9 kB, recorded once with
 * Chromium's own MediaRecorder (a canvas captured to video/mp4;codecs=avc1.42E01E).
 */
const clip = readFileSync(new URL('../fixtures/clip.mp4', import.meta.url));

/** Waits until the service worker controls the page (it claims it once active), else reloads once. */
async function waitForControl(page: Page): Promise<void> {
  await waitForServiceWorker(page);
  const isControlled = () =>
    page
      .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
        timeout: 5_000,
      })
      .then(() => true)
      .catch(() => false);
  if (await isControlled()) return;
  await page.reload();
  expect(await isControlled(), 'the service worker controls the page').toBe(true);
}

test("a store element's video plays on the paired tablet, streamed with range requests the service worker authenticates", async ({
  page,
  context,
  admin,
}) => {
  test.setTimeout(120_000);
  const store = await demoStore(admin.api);

  // The back-office gives one of the store's elements a video in the encyclopedia.
  const elementName = uniqueElementName('E2E Video');
  const { items: types } = await admin.api.get<{ items: { id: string; name: string }[] }>(
    `/stores/${store.id}/elementTypes`,
  );
  const type = types.find((item) => item.name === demoCatalogue.typeName);
  expect(type, demoCatalogue.typeName).toBeDefined();
  const { element } = await admin.api.post<{ element: { id: string; version: number } }>(
    `/stores/${store.id}/elements`,
    { name: elementName, type_id: type!.id, encyclopedia_extension_active: true },
  );
  const upload = await admin.api.request.post(
    `/api/storeElements/${element.id}/attachments?version=${element.version}`,
    {
      headers: admin.api.headers,
      multipart: { file: { name: 'Torching.mp4', mimeType: 'video/mp4', buffer: clip } },
    },
  );
  expect(upload.ok(), await upload.text()).toBe(true);
  const { attachment } = (await upload.json()) as {
    attachment: { type: string; url: string };
  };
  expect(attachment.type).toBe('video');
  const path = new URL(attachment.url, 'http://mise.invalid').pathname;
  expect(path).toMatch(/^\/api\/files\/stores\/.+\.mp4$/);

  // What goes through the network for that file: the page's requests (answered by the worker)
  // and the worker's own requests to the server (Playwright reports both in Chromium).
  const pageResponses: Response[] = [];
  const workerRequests: Request[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === path) pageResponses.push(response);
  });
  context.on('request', (request) => {
    if (request.serviceWorker() && new URL(request.url()).pathname === path)
      workerRequests.push(request);
  });

  // The tablet is paired and the service worker controls its page.
  await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} video`);
  await waitForControl(page);
  await identify(page, demoTablet.employee, demoTablet.pin);

  // The encyclopedia: the element, then its video.
  await page.getByRole('button', { name: 'Encyclopedia', exact: true }).click();
  await page.getByRole('button', { name: new RegExp(elementName) }).click();
  await expect(page.getByRole('heading', { name: 'Torching.mp4', level: 3 })).toBeVisible();
  await page.getByRole('button', { name: 'Play the video' }).click();

  // The player is given the file's address (no blob read whole first) and reads its metadata.
  const player = page.locator('video.encyclopedia__video');
  await expect(player).toHaveAttribute('src', attachment.url);
  await expect(player).toHaveAttribute('preload', 'metadata');
  await expect
    .poll(() => player.evaluate((video: HTMLVideoElement) => video.readyState), {
      message: 'the video reaches HAVE_METADATA',
    })
    .toBeGreaterThanOrEqual(1);
  const duration = await player.evaluate((video: HTMLVideoElement) => video.duration);
  expect(duration).toBeGreaterThan(1.5);
  expect(duration).toBeLessThan(2.5);

  // The player asked for a range; the worker answered it with the server's 206.
  await expect.poll(() => pageResponses.length).toBeGreaterThan(0);
  const answered = pageResponses.find((response) => response.status() === 206);
  expect(answered, 'a 206 answer to the player').toBeDefined();
  expect(answered!.fromServiceWorker()).toBe(true);
  expect(await answered!.request().headerValue('range')).toMatch(/^bytes=\d+-\d*$/);
  expect(await answered!.request().headerValue('authorization')).toBeNull();

  // The worker's request to the server carried the device token and the player's range.
  await expect.poll(() => workerRequests.length).toBeGreaterThan(0);
  const sent = workerRequests[0]!;
  expect(await sent.headerValue('authorization')).toMatch(/^Bearer \S+$/);
  expect(await sent.headerValue('range')).toMatch(/^bytes=\d+-\d*$/);
  const served = await sent.response();
  expect(served?.status()).toBe(206);
  expect(await served?.headerValue('content-range')).toMatch(
    new RegExp(`^bytes \\d+-\\d+/${clip.length}$`),
  );

  // Without the worker's header the same request is refused: the token made it pass.
  const anonymous = await page.request.get(attachment.url, { headers: { range: 'bytes=0-' } });
  expect(anonymous.status()).toBe(401);

  // And it plays: a seek lands where asked.
  await player.evaluate(async (video: HTMLVideoElement) => {
    video.pause();
    const seeked = new Promise((resolve) =>
      video.addEventListener('seeked', resolve, { once: true }),
    );
    video.currentTime = 1;
    await seeked;
  });
  expect(await player.evaluate((video: HTMLVideoElement) => video.currentTime)).toBeCloseTo(1, 0);
});
