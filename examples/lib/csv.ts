// A small RFC 4180 CSV reader for the import example: comma-separated, fields optionally in double quotes
// (which may hold commas, line breaks and "" for a quote), LF or CRLF line ends, an optional UTF-8 BOM.
// No dependency, because none is installed in this repository; for other dialects (semicolons, other
// encodings) use a maintained parser such as csv-parse.

/**
 * Parses CSV text into rows of fields.
 *
 * @throws Error when a quoted field is not closed.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const char = text.charAt(i);
    if (quoted) {
      if (char !== '"') field += char;
      else if (text.charAt(i + 1) === '"') field += text.charAt(++i);
      else quoted = false;
    } else if (char === '"' && field === '') {
      quoted = true;
    } else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text.charAt(i + 1) === '\n') i++;
      rows.push([...row, field]);
      row = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (quoted) throw new Error('Unclosed quoted field at the end of the file');
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/**
 * Parses CSV text whose first row names the columns.
 *
 * @returns one object per data row, keyed by column name; blank lines are skipped.
 */
export function readCsvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const names = header.map((name) => name.trim());
  return rows
    .filter((row) => row.some((value) => value.trim() !== ''))
    .map((row) => Object.fromEntries(names.map((name, index) => [name, row[index] ?? ''])));
}
