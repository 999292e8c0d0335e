import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { expectNoSeriousA11yViolations } from '../support/a11y';
import { expect, test } from '../support/fixtures';

/*
 * Documents (issue 17): the demo manager opens the manager-owned Lille store's folder, creates
 * a folder, uploads a picture through the resumable path (with its progress), renames it,
 * locks it (rename and delete then leave its menu), unlocks it, previews it, downloads it and
 * deletes it after the spec's confirmation.
 */

test.use({ signedInAs: 'manager' });

const storeName = 'Bistro Lille Centre';

/** A 64×48 PNG (one colour), made here so the test carries no binary file. */
function png(): Buffer {
  const width = 64;
  const height = 48;
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x3c)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('a manager files a picture in a store folder, renames, locks, previews, downloads and deletes it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const folderName = `Contrôles ${Date.now().toString(36)}`;
  await page.goto('/documents');
  await expect(page.getByTestId('document-root').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'documents');
  await page.getByTestId('document-root-name').filter({ hasText: storeName }).click();

  // A folder of its own, then into it.
  await page.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill(folderName);
  await dialog.getByRole('button', { name: /create|save|ok/i }).click();
  await page.getByRole('button', { name: folderName, exact: true }).click();
  await expect(page.getByText('No files found.')).toBeVisible();

  // The upload, with its progress, through the resumable path.
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('document-upload').click();
  await (await chooser).setFiles({
    name: 'chambre-froide.png',
    mimeType: 'image/png',
    buffer: png(),
  });
  await expect(page.getByTestId('upload-queue')).toBeVisible();
  await expect(page.getByTestId('upload-queue').getByText('Uploaded')).toBeVisible({
    timeout: 30_000,
  });
  const fileButton = page.getByRole('button', { name: 'chambre-froide.png', exact: true });
  await expect(fileButton).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'documents');

  // Rename.
  await page.getByRole('button', { name: 'Actions for chambre-froide.png' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByRole('dialog').getByRole('textbox').fill('Chambre froide juin.png');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /rename|save|ok/i })
    .click();
  const renamed = page.getByRole('button', { name: 'Chambre froide juin.png', exact: true });
  await expect(renamed).toBeVisible();

  // Locked: no rename, no delete in its menu; then unlocked again.
  const menu = page.getByRole('button', { name: 'Actions for Chambre froide juin.png' });
  await menu.click();
  await page.getByRole('menuitem', { name: 'Lock' }).click();
  await expect(page.getByRole('img', { name: 'Locked' })).toBeVisible();
  await menu.click();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Unlock' }).click();
  await expect(page.getByRole('img', { name: 'Locked' })).toHaveCount(0);

  // Preview (an image opens in a modal) and download (the same bytes).
  await renamed.click();
  const preview = page.getByRole('dialog', { name: 'Chambre froide juin.png' });
  await expect(preview.locator('img')).toBeVisible();
  await expect
    .poll(() => preview.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(64);
  await page.keyboard.press('Escape');
  await menu.click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Download' }).click();
  const file = await download;
  expect(readFileSync((await file.path())!).equals(png())).toBe(true);

  // Delete after the confirmation.
  await menu.click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.getByText('Are you sure you want to delete this item?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No files found.')).toBeVisible();

  // Phone width: the folder still reads and acts.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'New folder' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'documents');
});
