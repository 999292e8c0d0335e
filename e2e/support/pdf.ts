import { readFileSync } from 'node:fs';
import type { Download } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * A downloaded PDF read back with PDF.js (as the server tests do in apps/server/src/test/
 * read-pdf.ts): checks it is a PDF, then answers the text of every page, its text items joined
 * by single spaces (so a name wrapped over two lines of a table cell still reads whole).
 */
export async function downloadedPdfText(download: Download): Promise<string> {
  const bytes = readFileSync((await download.path())!);
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') {
    throw new Error(`${download.suggestedFilename()} is not a PDF`);
  }
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
  }).promise;
  const lines: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    for (const item of (await page.getTextContent()).items) {
      if ('str' in item && item.str.trim() !== '') lines.push(item.str.trim());
    }
    page.cleanup();
  }
  await pdf.destroy();
  return lines.join(' ').replace(/\s+/g, ' ');
}
