import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { CsvError, parseCsv } from '../../src/files/csv.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';

/**
 * Dataset rows (spec 2 §2.7: `input` required; `output`, `system`, `expected_output`, `context`,
 * `metadata`), given inline or as a local JSONL, JSON or CSV file inside the allowed folders.
 * Every row is checked before anything is sent; a misspelt field (`expected` for
 * `expected_output`) is refused rather than dropped, since it would silently change every score.
 */

/**
 * Listed without a type: JSON Schema would need an anyOf for "array or path", paid for on every
 * turn; readRows checks the shape instead and says what it takes.
 */
export const Rows = z.unknown().describe('[{input, expected_output?}] or .jsonl/.csv path');

export type Row = Record<string, unknown> & { input: unknown };

const FIELDS = ['input', 'output', 'system', 'expected_output', 'context', 'metadata'];
const FIELD_LIST = 'input, expected_output, output, system, context, metadata';
const MAX_FILE_BYTES = 10 * 1_048_576;

const rowError = (param: string, where: string, message: string, fix: string) =>
  new InputError(`\`${param}\`${where}: ${message}`, { param, fix });

function checkRow(value: unknown, param: string, where: string): Row {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw rowError(
      param,
      where,
      'a row is an object.',
      `Write each row as {"input": ..., "expected_output": ...}.`,
    );
  const row = value as Record<string, unknown>;
  const unknown = Object.keys(row).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined) {
    throw rowError(
      param,
      where,
      `"${unknown}" is not a row field.`,
      `Use ${FIELD_LIST}; put anything else under metadata.`,
    );
  }
  const input = row.input;
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === ''))
    throw rowError(param, where, 'every row needs a non-empty input.', 'Give the row an input.');
  if (row.system !== undefined && typeof row.system !== 'string')
    throw rowError(param, where, 'system is a string.', 'Pass system as text.');
  if (
    row.metadata !== undefined &&
    (typeof row.metadata !== 'object' || row.metadata === null || Array.isArray(row.metadata))
  )
    throw rowError(param, where, 'metadata is an object.', 'Pass metadata as {"name": value}.');
  return row as Row;
}

/** The rows of `value`: inline objects, or the rows of a file named by its path. */
export async function readRows(ctx: ToolContext, value: unknown, param = 'rows'): Promise<Row[]> {
  if (Array.isArray(value)) return value.map((row, i) => checkRow(row, `${param}[${i}]`, ''));
  if (typeof value !== 'string' || !value.trim()) {
    throw rowError(
      param,
      '',
      'give an array of rows or the path of a rows file.',
      `Pass ${param}: [{"input": ..., "expected_output": ...}] or "rows.jsonl".`,
    );
  }
  const file = await readRowsFile(ctx, value, param);
  const text = file.data.toString('utf8');
  const ext = /\.([a-z]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  const first = text.trimStart()[0];
  const kind =
    ext === 'csv' || ext === 'jsonl' || ext === 'ndjson' || ext === 'json'
      ? ext
      : first === '['
        ? 'json'
        : first === '{'
          ? 'jsonl'
          : 'csv';
  const rows =
    kind === 'csv' ? csvRows(text, param) : kind === 'json' ? jsonRows(text, param) : jsonlRows(text, param);
  if (rows.length === 0) throw rowError(param, '', `${file.name} holds no rows.`, 'Add rows to the file.');
  return rows;
}

async function readRowsFile(ctx: ToolContext, ref: string, param: string) {
  try {
    return await ctx.files.read(ref, { maxBytes: MAX_FILE_BYTES, purpose: 'a rows file', argument: param });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    if (ctx.files.trust === 'remote') {
      throw new InputError(
        `\`${param}\`: over HTTP this server does not read local files (by design: a remote client may name no server path), except in folders the operator shares.`,
        { param, fix: `Pass the rows inline: ${param}: [{"input": ..., "expected_output": ...}].` },
      );
    }
    throw new InputError(error.message, {
      param,
      fix: 'Put the file inside an allowed folder (a client root, the output folder or --allow-dir), or pass the rows inline.',
    });
  }
}

function jsonRows(text: string, param: string): Row[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw rowError(
      param,
      '',
      `the file is not JSON (${(error as Error).message}).`,
      'Write a JSON array of rows, or one row per line (.jsonl).',
    );
  }
  if (!Array.isArray(parsed))
    throw rowError(param, '', 'a .json rows file holds an array.', 'Write [{"input": ...}, ...].');
  return parsed.map((row, i) => checkRow(row, param, ` (row ${i + 1})`));
}

function jsonlRows(text: string, param: string): Row[] {
  const rows: Row[] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw rowError(param, ` (line ${i + 1})`, 'not a JSON object.', 'Write one JSON object per line.');
    }
    rows.push(checkRow(value, param, ` (line ${i + 1})`));
  }
  return rows;
}

/** A header row names the fields; `metadata.<name>` columns fill metadata; empty cells are left out. */
function csvRows(text: string, param: string): Row[] {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError)
      throw rowError(param, '', `CSV ${error.message}.`, 'Fix the quoting on that line.');
    throw error;
  }
  const header = (records[0] ?? []).map((name) => name.trim());
  const column = header.find(
    (name) => name === 'metadata' || (!FIELDS.includes(name) && !/^metadata\.\S+$/.test(name)),
  );
  if (column !== undefined || !header.includes('input')) {
    throw rowError(
      param,
      ' (line 1)',
      column === undefined ? 'the header has no input column.' : `column "${column}" is not a row field.`,
      `Name the columns ${FIELD_LIST.replace(', metadata', '')} or metadata.<name>.`,
    );
  }
  return records.slice(1).map((record, r) => {
    if (record.length !== header.length) {
      throw rowError(
        param,
        ` (row ${r + 2})`,
        `${record.length} fields, but the header has ${header.length}.`,
        'Quote fields that contain commas.',
      );
    }
    const row: Record<string, unknown> = {};
    const metadata: Record<string, string> = {};
    header.forEach((name, c) => {
      const cell = record[c]!;
      if (cell === '') return;
      if (name.startsWith('metadata.')) metadata[name.slice('metadata.'.length)] = cell;
      else row[name] = cell;
    });
    if (Object.keys(metadata).length) row.metadata = metadata;
    return checkRow(row, param, ` (row ${r + 2})`);
  });
}
