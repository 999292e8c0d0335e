import PDFDocument from 'pdfkit';
import { pdfFonts } from './fonts';

/**
 * An A4 document, landscape unless asked for portrait, with no automatic margins (the layout
 * places every line itself, so pdfkit never adds a page on its own) and buffered pages, so
 * footers can carry "page n of N" once the content is laid out.
 */
export function createPdfDocument(options: {
  title: string;
  layout?: 'landscape' | 'portrait';
}): PDFKit.PDFDocument {
  return new PDFDocument({
    size: 'A4',
    layout: options.layout ?? 'landscape',
    margin: 0,
    bufferPages: true,
    font: pdfFonts.regular,
    info: { Title: options.title, Creator: 'Mise', Producer: 'Mise' },
    displayTitle: true,
  });
}

/** Collects the document's bytes; resolves once `doc.end()` has been called and flushed. */
export function renderToBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
