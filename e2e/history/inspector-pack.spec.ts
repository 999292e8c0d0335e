import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import yauzl from 'yauzl';
import { expectNoSeriousA11yViolations } from '../support/a11y';
import { apiSession } from '../support/auth';
import { expect, test } from '../support/fixtures';

/*
 * The inspector pack (issue 21): the demo owner opens the history of the demo store, builds
 * the pack of last month, follows its progress, downloads the ZIP and opens its manifest: the
 * manifest lists the files with their sha256, and a listed file has that hash.
 */

test.use({ signedInAs: 'customer' });

const storeName = 'Bistro Paris Opéra';

/** The calendar month before today's in the store's zone, as YYYY-MM-DD and dd/mm/yyyy. */
function lastMonth() {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
  const [year, month] = today.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 2, 1));
  const last = new Date(Date.UTC(year, month - 1, 0));
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  const shown = (date: Date) => iso(date).split('-').reverse().join('/');
  return { start: iso(first), end: iso(last), shown: `${shown(first)} – ${shown(last)}` };
}

/** Every file of a ZIP by its path (yauzl, a reader independent of the server's writer). */
function readZip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a ZIP'));
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const lines: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    for (const item of (await page.getTextContent()).items) {
      if ('str' in item) lines.push(item.str);
    }
  }
  await pdf.destroy();
  return lines.join('\n');
}

type Manifest = {
  store: { id: string; name: string };
  period: { start: string; end: string };
  chain_head: { seq: number; head_hash: string; at: string };
  generated_by: { kind: string; name: string; email: string | null };
  files: { name: string; size: number; sha256: string }[];
};

test('the owner builds the inspector pack of last month, downloads it and checks a file against its manifest', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const api = await apiSession(page.request);
  const { items } = await api.get<{ items: { id: string; name: string }[] }>('/stores', {
    search: 'Paris',
  });
  const storeId = items.find((item) => item.name === storeName)!.id;
  const month = lastMonth();

  await page.goto(`/history?store=${storeId}`);
  await expect(page.getByTestId('history-store-select')).toHaveValue(storeName);
  await page.getByTestId('inspector-pack-button').click();
  const dialog = page.getByRole('dialog', { name: 'Inspector pack' });
  await expect(dialog).toBeVisible();
  // Last calendar month by default.
  await expect(dialog.getByTestId('inspector-pack-range')).toContainText(month.shown);
  await expectNoSeriousA11yViolations(page, 'inspector pack dialog');

  await dialog.getByTestId('inspector-pack-build').click();
  const download = dialog.getByTestId('inspector-pack-download');
  await expect(download).toBeVisible({ timeout: 90_000 });
  await expect(dialog.getByText('The pack is ready.')).toBeVisible();

  const downloadEvent = page.waitForEvent('download');
  await download.click();
  const file = await downloadEvent;
  expect(file.suggestedFilename()).toBe(
    `inspector-pack-bistro-paris-opera-${month.start}-${month.end}.zip`,
  );
  const entries = await readZip(readFileSync((await file.path())!));

  // The manifest: the store, last month, the owner, the chain head, and every file's hash.
  const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Manifest;
  expect(manifest.store).toMatchObject({ id: storeId, name: storeName });
  expect(manifest.period).toEqual({ start: month.start, end: month.end });
  expect(manifest.generated_by).toMatchObject({ kind: 'user', email: 'customer@demo.test' });
  expect(manifest.chain_head.head_hash).toMatch(/^[0-9a-f]{64}$/);
  const history = manifest.files.find((item) => item.name === 'history/1-temperatures.pdf')!;
  const bytes = entries.get(history.name)!;
  expect(bytes.length).toBe(history.size);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(history.sha256);
  for (const listed of manifest.files) expect(entries.has(listed.name), listed.name).toBe(true);

  // The readable page says the same.
  const text = await pdfText(entries.get('manifest.pdf')!);
  expect(text).toContain(storeName);
  expect(text).toContain(history.sha256);

  // The pack is listed with the store's packs, at phone width too.
  await page.setViewportSize({ width: 390, height: 844 });
  const listed = dialog.getByTestId('inspector-pack-item').first();
  await expect(listed).toContainText(month.shown);
  await expect(listed.getByRole('link')).toHaveAttribute('href', /\/download$/);
  await expectNoSeriousA11yViolations(page, 'inspector pack dialog (phone)');
});
