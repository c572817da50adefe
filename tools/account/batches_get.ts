import { z } from 'zod';
import { explainRefusal } from '../../src/credential-refusal.js';
import { defineTool, LONG_RESULT_CHARS } from '../../src/mcp/define-tool.js';
import { NumberLike } from '../../src/replies/number.js';
import { readReply } from '../../src/replies/read.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { Batch, BatchSummary, summary, summaryLine } from './batches.js';

/**
 * One inline result; its shape is not shown in the spec, so nothing is required (a status code may
 * be a numeric string). Each is read on its own: one that cannot be used is left out and named.
 */
const Result = z.looseObject({
  custom_id: z.string().nullish(),
  response: z.looseObject({ status_code: NumberLike.nullish(), body: z.unknown() }).nullish(),
  error: z.unknown().nullish(),
});
const Detail = Batch.extend({ results: z.array(z.unknown()).nullish() });

const ChatBody = z.looseObject({
  choices: z.array(z.looseObject({ message: z.looseObject({ content: z.string().nullish() }) })).min(1),
});
const ResponsesBody = z.looseObject({
  output: z.array(
    z.looseObject({ content: z.array(z.looseObject({ text: z.string().optional() })).optional() }),
  ),
});

/** What the tool returns; listed smaller, since every listed field costs tokens each turn. */
const Detailed = z.object({
  batch: BatchSummary,
  results: z.number().optional(),
  results_file: z.object({ uri: z.string(), path: z.string().optional() }).optional(),
  preview: z.array(z.object({ id: z.string(), ok: z.boolean(), text: z.string() })).optional(),
  not_usable: z.string().optional(),
});

const PREVIEW = 3;
const PREVIEW_CHARS = 300;
/** What fits comfortably in a result (about 1,000 tokens): results that fit come inline, whole. */
const INLINE_CHARS = 4_000;

/** The answer text of one result, in either endpoint's format. */
function answerOf(body: unknown): string | undefined {
  const chat = readReply(ChatBody, body);
  if (chat.success) return chat.data.choices[0]?.message.content ?? undefined;
  const responses = readReply(ResponsesBody, body);
  if (responses.success)
    return responses.data.output
      .flatMap((item) => (item.content ?? []).map((part) => part.text ?? ''))
      .join('');
  return undefined;
}

export default defineTool({
  name: 'batches_get',
  title: 'Get a batch',
  description: 'One batch by id: status, counts, usage, error; results inline if short, else a JSON file.',
  toolset: 'account',
  resultChars: LONG_RESULT_CHARS,
  credential: 'api_key',
  nature: 'read',
  input: z.object({ id: z.string().min(1) }),
  output: z.looseObject({
    batch: z.looseObject({ id: z.string(), status: z.string() }),
    results_file: z.looseObject({ uri: z.string() }).optional(),
  }),
  async run(args, { api, files }): Promise<z.infer<typeof Detailed>> {
    const { data } = await api
      .request({
        method: 'GET',
        host: 'direct',
        path: `/api/beta/batches/${encodeURIComponent(args.id)}`,
        schema: Detail,
      })
      .catch((error: unknown) => {
        throw explainRefusal(error, { credential: 'api_key' });
      });
    const batch = summary(data);
    if (!data.results) return { batch };
    const read = usableList(Result, data.results, { nameKeys: ['custom_id'] });
    const results = read.items;
    const notUsable = leftOutNote('result', read.left_out);
    const left = notUsable ? { not_usable: notUsable } : {};
    const shown = results.map((result, index) => {
      const ok = !result.error && (result.response?.status_code ?? 200) < 400;
      const text = ok
        ? (answerOf(result.response?.body) ?? '')
        : JSON.stringify(result.error ?? result.response);
      return { id: result.custom_id ?? `#${index + 1}`, ok, text };
    });
    // Decided by size, not count (issue 32): results that fit comfortably are the whole answer,
    // shown here whole, no file.
    const size = shown.reduce((sum, p) => sum + p.id.length + p.text.length, 0);
    if (size <= INLINE_CHARS) return { batch, results: results.length, preview: shown, ...left };
    // Longer ones go to a file, the model sees the first few, cut short.
    const preview = shown.slice(0, PREVIEW).map((p) => ({ ...p, text: p.text.slice(0, PREVIEW_CHARS) }));
    const saved = await files.save(Buffer.from(JSON.stringify(results, null, 2)), {
      mimeType: 'application/json',
      name: `${data.id}-results.json`,
    });
    return {
      batch,
      results: results.length,
      results_file: { uri: saved.uri, ...(saved.path ? { path: saved.path } : {}) },
      preview,
      ...left,
    };
  },
  text: (result) => {
    const parsed = Detailed.safeParse(result);
    if (!parsed.success) return JSON.stringify(result);
    const r = parsed.data;
    return [
      summaryLine(r.batch),
      ...(r.results_file
        ? [`${r.results} results saved to ${r.results_file.path ?? r.results_file.uri}`]
        : []),
      ...(r.preview ?? []).map((p) => `${p.id}: ${p.ok ? '' : 'failed: '}${p.text}`),
      ...(r.not_usable ? [`(${r.not_usable}.)`] : []),
    ].join('\n');
  },
  // The saved file as a link (JSON is never inlined).
  content: (r) => (r.results_file ? [{ type: 'media' as const, uri: r.results_file.uri }] : []),
});
