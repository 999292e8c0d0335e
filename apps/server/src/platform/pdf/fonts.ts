import { createRequire } from 'node:module';

/*
 * The PDF fonts. The 14 standard PDF fonts only cover WinAnsi, which lacks Polish letters
 * (ł, ś, ż), so text is set in DejaVu Sans Condensed, embedded (subset) from the
 * dejavu-fonts-ttf package. The files are resolved through Node's module resolution from
 * this file: npm packages stay external to the esbuild bundle, so sources, tests and
 * apps/server/dist all find them in node_modules and the build copies nothing.
 */
const require = createRequire(import.meta.url);

export const pdfFonts = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'),
} as const;
