import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export type PdfTextItem = { text: string; x: number; y: number };

/** Reads a PDF back with PDF.js: each page's size, its text items with positions, and its text. */
export async function readPdf(buffer: Buffer) {
  const pdf = await getDocument({
    data: new Uint8Array(buffer),
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
  }).promise;
  const pages: { view: number[]; items: PdfTextItem[]; text: string }[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const items = content.items
      .filter((item) => 'str' in item && item.str.trim() !== '')
      .map((item) => {
        const { str, transform } = item as { str: string; transform: number[] };
        return { text: str, x: transform[4]!, y: transform[5]! };
      });
    pages.push({ view: page.view, items, text: items.map((item) => item.text).join('\n') });
    page.cleanup();
  }
  await pdf.destroy();
  return pages;
}
