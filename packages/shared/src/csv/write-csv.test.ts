import { describe, expect, it } from 'vitest';
import { spreadsheetSafe, writeCsv } from './write-csv';

describe('writeCsv', () => {
  it('quotes the separator, quotes and line breaks, ends lines with CRLF (RFC 4180)', () => {
    expect(
      writeCsv([['a', 'b;c', 'say "hi"', 'one\ntwo', 'cr\rhere', '']], { separator: ';' }),
    ).toBe('a;"b;c";"say ""hi""";"one\ntwo";"cr\rhere";\r\n');
  });

  it('writes a byte-order mark only when asked', () => {
    expect(writeCsv([['x']], { separator: ';', hasByteOrderMark: true })).toBe('\uFEFFx\r\n');
    expect(writeCsv([['x']], { separator: ';' })).toBe('x\r\n');
  });

  it('guards every cell that a spreadsheet would run as a formula', () => {
    const csv = writeCsv(
      [['=HYPERLINK("http://evil.example";"click")', '+1+1', '-2+3', '@SUM(A1)', '\tx', 'ok']],
      { separator: ';' },
    );
    expect(csv).toBe(
      `"'=HYPERLINK(""http://evil.example"";""click"")";'+1+1;'-2+3;'@SUM(A1);'\tx;ok\r\n`,
    );
  });

  it('keeps the sign of plain numbers', () => {
    expect(spreadsheetSafe('-18')).toBe('-18');
    expect(spreadsheetSafe('-0.5')).toBe('-0.5');
    expect(spreadsheetSafe('+3,5')).toBe('+3,5');
    expect(spreadsheetSafe('-1-1')).toBe("'-1-1");
  });
});
