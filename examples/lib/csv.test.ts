import { describe, expect, it } from 'vitest';
import { parseCsv, readCsvRecords } from './csv.js';

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks, LF or CRLF, with or without a BOM', () => {
    const text =
      '\ufeffname,notes\r\nAda,"Prefers texts, after 5 pm"\r\nKate,"Said ""hi""\nthen left"\nAlan,\n';
    expect(parseCsv(text)).toEqual([
      ['name', 'notes'],
      ['Ada', 'Prefers texts, after 5 pm'],
      ['Kate', 'Said "hi"\nthen left'],
      ['Alan', ''],
    ]);
  });

  it('keeps a last line without a line break, and refuses an unclosed quote', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(() => parseCsv('a\n"open')).toThrow(/Unclosed quoted field/);
  });
});

describe('readCsvRecords', () => {
  it('keys rows by the header, skips blank lines and fills missing cells with empty strings', () => {
    expect(readCsvRecords(' first_name ,phone\nAda,415\n\nAlan\n')).toEqual([
      { first_name: 'Ada', phone: '415' },
      { first_name: 'Alan', phone: '' },
    ]);
    expect(readCsvRecords('')).toEqual([]);
  });
});
