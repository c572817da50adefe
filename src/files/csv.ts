/**
 * A small RFC 4180 reader for CSV files a person hands a tool (evaluation rows): comma-separated,
 * fields optionally in double quotes, `""` for a quote inside one, line breaks (LF, CRLF or CR)
 * allowed inside quoted fields, a leading byte-order mark ignored. No dependency does this here
 * yet (the project has no CSV library); `csv-parse/sync` would replace it one for one.
 */

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Every record as its fields; blank lines are skipped. Throws CsvError naming the line. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  /** The field began with a quote: text after its closing quote is an error. */
  let closed = false;
  let line = 1;
  let recordLine = 1;
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;

  const endField = () => {
    record.push(field);
    field = '';
    closed = false;
  };
  const endRecord = () => {
    endField();
    if (record.length > 1 || record[0] !== '') records.push(record);
    record = [];
  };

  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          closed = true;
        }
      } else {
        if (ch === '\n' || (ch === '\r' && source[i + 1] !== '\n')) line++;
        field += ch;
      }
      continue;
    }
    if (ch === ',') {
      endField();
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (closed) {
      throw new CsvError(
        `line ${line}: text after a closing quote (write "" for a quote inside a field)`,
        line,
      );
    } else if (ch === '"' && field === '') {
      quoted = true;
    } else {
      field += ch;
    }
  }
  if (quoted) throw new CsvError(`line ${recordLine}: a quoted field is never closed`, recordLine);
  if (field !== '' || record.length > 0) endRecord();
  return records;
}
