import { createRequire } from 'node:module';
import type { PackManifest } from '@mise/shared/records/pack';
import { createPdfDocument, renderToBuffer } from '../../platform/pdf/document';
import { exportTexts, fillTemplate } from '../../platform/pdf/export-texts';
import { pdfFonts } from '../../platform/pdf/fonts';
import { formatDay, zonedClock } from '../../platform/pdf/tasks';

/*
 * The manifest's readable page (issue 21): the store, the period, who generated the pack and
 * when, the record chain head at the end of the period, then every file of the pack with its
 * size in bytes and its sha256 — what manifest.json says, for an inspector without a JSON
 * reader. Hashes are set in a monospaced font so they can be compared character by character.
 * A4 portrait, more pages when the files do not fit on one. pdfkit's public API only.
 */

const require = createRequire(import.meta.url);
const monoFont = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf');

const pageWidth = 595.28;
const pageHeight = 841.89;
const margin = 40;
const contentWidth = pageWidth - 2 * margin;
const footerTop = pageHeight - margin;
const rowHeight = 13;
const colours = { text: '#111111', muted: '#5b6170', header: '#2f3a56', border: '#b8bcc6' };

const nameWidth = 185;
const sizeWidth = 60;
const hashX = margin + nameWidth + sizeWidth + 10;

export async function renderManifestPdf(manifest: PackManifest): Promise<Buffer> {
  const words = exportTexts(manifest.language).inspectorPack;
  const clock = zonedClock(manifest.store.timezone_name);
  const numbers = new Intl.NumberFormat(exportTexts(manifest.language).tasks.locale);
  const instant = (iso: string) => {
    const parts = clock.instant(iso);
    return `${parts.date} ${parts.time}`;
  };
  const doc = createPdfDocument({
    title: `${words.title} — ${manifest.store.name}`,
    layout: 'portrait',
  });
  const output = renderToBuffer(doc);

  let y = margin;
  doc.font(pdfFonts.bold).fontSize(16).fillColor(colours.text);
  doc.text(`${words.title} — ${manifest.store.name}`, margin, y, {
    width: contentWidth,
    lineBreak: false,
    ellipsis: true,
  });
  y += 28;

  const facts: [string, string, boolean?][] = [
    [
      words.store,
      [manifest.store.name, manifest.store.address, manifest.store.city].filter(Boolean).join(', '),
    ],
    [words.period, `${formatDay(manifest.period.start)} – ${formatDay(manifest.period.end)}`],
    [
      words.generatedBy,
      manifest.generated_by.email
        ? `${manifest.generated_by.name} <${manifest.generated_by.email}>`
        : manifest.generated_by.name,
    ],
    [words.generatedAt, instant(manifest.generated_at)],
    [
      words.chainHead,
      fillTemplate(words.chainHeadValue, {
        seq: manifest.chain_head.seq,
        time: instant(manifest.chain_head.at),
      }),
    ],
    [words.chainHash, manifest.chain_head.head_hash, true],
  ];
  for (const [label, value, isMono] of facts) {
    doc.font(pdfFonts.bold).fontSize(9).fillColor(colours.muted);
    doc.text(label, margin, y, { width: 120, lineBreak: false, ellipsis: true });
    doc
      .font(isMono ? monoFont : pdfFonts.regular)
      .fontSize(isMono ? 8 : 9)
      .fillColor(colours.text);
    doc.text(value, margin + 125, y, {
      width: contentWidth - 125,
      lineBreak: false,
      ellipsis: true,
    });
    y += 15;
  }
  y += 6;
  doc.font(pdfFonts.regular).fontSize(8.5).fillColor(colours.muted);
  doc.text(words.explanation, margin, y, { width: contentWidth });
  y = doc.y + 12;

  const header = () => {
    doc.rect(margin, y, contentWidth, rowHeight + 4).fill(colours.header);
    doc.font(pdfFonts.bold).fontSize(8).fillColor('#ffffff');
    doc.text(words.file, margin + 4, y + 4, { width: nameWidth - 8, lineBreak: false });
    doc.text(words.size, margin + nameWidth, y + 4, {
      width: sizeWidth,
      align: 'right',
      lineBreak: false,
    });
    doc.text(words.sha256, hashX, y + 4, { width: pageWidth - margin - hashX, lineBreak: false });
    y += rowHeight + 6;
  };
  header();
  doc.strokeColor(colours.border).lineWidth(0.5);
  for (const file of manifest.files) {
    if (y + rowHeight > footerTop - 10) {
      doc.addPage();
      y = margin;
      header();
      doc.strokeColor(colours.border).lineWidth(0.5);
    }
    // A long name is set smaller rather than cut: the inspector looks the file up by it.
    doc.font(pdfFonts.regular).fontSize(1).fillColor(colours.text);
    const nameSize = Math.max(4.5, Math.min(7.5, (nameWidth - 8) / doc.widthOfString(file.name)));
    doc.fontSize(nameSize);
    doc.text(file.name, margin + 4, y + (7.5 - nameSize) / 2, {
      width: nameWidth - 8,
      lineBreak: false,
      ellipsis: true,
    });
    doc.fontSize(7.5);
    doc.text(numbers.format(file.size), margin + nameWidth, y, {
      width: sizeWidth,
      align: 'right',
      lineBreak: false,
    });
    doc.font(monoFont).fontSize(6.4);
    doc.text(file.sha256, hashX, y + 0.5, { width: pageWidth - margin - hashX, lineBreak: false });
    y += rowHeight;
    doc
      .moveTo(margin, y - 3)
      .lineTo(pageWidth - margin, y - 3)
      .stroke();
  }

  const range = doc.bufferedPageRange();
  for (let index = 0; index < range.count; index++) {
    doc.switchToPage(range.start + index);
    doc.font(pdfFonts.regular).fontSize(7.5).fillColor(colours.muted);
    doc.text(
      fillTemplate(words.page, { number: index + 1, count: range.count }),
      margin,
      footerTop,
      { width: contentWidth, align: 'right', lineBreak: false },
    );
  }
  doc.end();
  return output;
}
