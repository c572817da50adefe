import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv } from '../../../src/files/csv.js';

describe('parseCsv', () => {
  it('reads plain records and skips blank lines', () => {
    expect(parseCsv('input,expected_output\nhello,world\n\nfoo,bar\n')).toEqual([
      ['input', 'expected_output'],
      ['hello', 'world'],
      ['foo', 'bar'],
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks inside', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\r\n"two\nlines",\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', ''],
    ]);
  });

  it('drops a byte-order mark and reads a last record without a line break', () => {
    expect(parseCsv('\uFEFFinput\nlast')).toEqual([['input'], ['last']]);
  });

  it('keeps empty fields', () => {
    expect(parseCsv('a,,c\n,,\n')).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
    ]);
  });

  it('names the line of a quote that is never closed', () => {
    const error = (() => {
      try {
        parseCsv('a\nok\n"open\nstill open');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CsvError);
    expect((error as CsvError).line).toBe(3);
    expect((error as CsvError).message).toMatch(/line 3: a quoted field is never closed/);
  });

  it('refuses text after a closing quote', () => {
    expect(() => parseCsv('"a"b,c')).toThrow(/line 1: text after a closing quote/);
  });
});
