// The self-contained build (its own Buffer polyfill): the same module runs in the browser.
import { stringify } from 'csv-stringify/browser/esm/sync';

/*
 * The product's one CSV writer (the history export on the server, the punch-card file in the
 * browser): csv-stringify's synchronous writer, RFC 4180 quoting (a field holding the
 * separator, a quote, a CR or an LF is quoted, quotes doubled), CRLF line ends, and the
 * spreadsheet formula guard on every cell.
 */

/** A cell a spreadsheet would run as a formula: '=', '+', '-', '@', tab or CR first. */
const formulaStart = /^[=+\-@\t\r]/;
/** A plain number ('-18', '+3.5', '-0,5') is a value, not a formula: it is left as it is. */
const plainNumber = /^[+-]?\d+(?:[.,]\d+)?$/;

/**
 * OWASP CSV injection: a cell starting like a formula is prefixed with an apostrophe, so
 * `=HYPERLINK(...)` typed as a name reads as text in Excel, LibreOffice and Google Sheets.
 * Plain numbers (negative temperatures) keep their sign.
 */
export function spreadsheetSafe(value: string): string {
  return formulaStart.test(value) && !plainNumber.test(value) ? `'${value}` : value;
}

export type CsvOptions = {
  /** Field separator (';' for the spreadsheets of French and European users). */
  separator: string;
  /** Start with a UTF-8 byte-order mark (Excel then reads the accents). Default false. */
  hasByteOrderMark?: boolean;
};

/** Rows (the header first) as CSV text, every line ended by CRLF, every cell guarded. */
export function writeCsv(rows: readonly (readonly string[])[], options: CsvOptions): string {
  const text = stringify(
    rows.map((row) => row.map(spreadsheetSafe)),
    {
      delimiter: options.separator,
      record_delimiter: 'windows',
      eof: true,
      // csv-stringify quotes the separator and quotes itself; a bare CR or LF must be too.
      quoted_match: /[\r\n]/,
    },
  );
  return options.hasByteOrderMark ? `\uFEFF${text}` : text;
}
