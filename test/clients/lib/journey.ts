/**
 * The journey every client makes: list the tools (converted without a warning), chat with
 * progress, search the web, make an image. Each step becomes one cell of the table.
 */
import { warningsDuring } from './capture.js';
import { bounded, type Called, isRecord, type Session } from './session.js';
import type { Cell, WorkerResult } from './types.js';

/** Tools the journey needs, and one that takes no arguments (the empty-input case of strict mode). */
const EXPECTED = ['chat', 'web_search', 'image_generate', 'auth_status'];
const STEP_MS = 30_000;

type Journey = Omit<WorkerResult, 'id' | 'version' | 'node' | 'wireEra'>;

export async function journey(session: Session, clientName: string): Promise<Journey> {
  const out: Journey = {
    list: { status: 'fail', note: 'not run' },
    chat: { status: 'fail', note: 'not run' },
    search: { status: 'fail', note: 'not run' },
    image: { status: 'fail', note: 'not run' },
    warnings: [],
    delivered: [],
  };

  out.list = await step(async () => {
    const { value: tools, warnings } = await warningsDuring(() =>
      bounded('list tools', STEP_MS, session.tools()),
    );
    out.delivered = tools;
    out.warnings = warnings;
    const missing = EXPECTED.filter((name) => !tools.some((tool) => tool.name === name));
    const notObjects = tools.filter(
      (tool) => !isRecord(tool.parameters) || tool.parameters.type !== 'object',
    );
    if (missing.length) return fail(`missing ${missing.join(', ')}`);
    if (notObjects.length) return fail(`parameters not an object schema: ${names(notObjects)}`);
    if (warnings.length) return fail(`${warnings.length} warning(s): ${warnings[0]}`);
    return pass(`${tools.length} tools, no warnings`);
  });

  if (session.strictTools) {
    const strictTools = session.strictTools;
    await step(async () => {
      const { value, warnings } = await warningsDuring(() =>
        bounded('strict conversion', STEP_MS, strictTools()),
      );
      out.frameworkStrict = value;
      out.strictWarnings = warnings;
      return pass();
    }).then((cell) => {
      if (cell.status === 'fail') out.strictWarnings = [cell.note ?? 'strict conversion failed'];
    });
  }

  out.chat = await step(async () => {
    const prompt = `Say hello to ${clientName}`;
    const progress: string[] = [];
    const onProgress = session.noProgress ? undefined : (message: string) => progress.push(message);
    const result = await bounded(
      'chat',
      STEP_MS,
      session.call('chat', { model: 'openai/gpt-sandbox', prompt }, onProgress),
    );
    const problem =
      resultProblem(result) ?? (result.text.includes(prompt) ? undefined : 'reply lacks the prompt');
    if (problem) return fail(problem);
    const via = session.callNote ? `${session.callNote}; ` : '';
    if (session.noProgress) return { status: 'pass', note: `${via}progress n/a: ${session.noProgress}` };
    if (progress.length === 0) return fail(`${via}no progress notifications`);
    return pass(`${via}${progress.length} progress`);
  });

  out.search = await step(async () => {
    const result = await bounded(
      'web_search',
      STEP_MS,
      session.call('web_search', { query: 'model context protocol' }),
    );
    const problem =
      resultProblem(result) ?? (/https?:\/\//.test(result.text) ? undefined : 'no result links in the reply');
    return problem ? fail(problem) : pass();
  });

  out.image = await step(async () => {
    const result = await bounded(
      'image_generate',
      STEP_MS,
      session.call('image_generate', { model: 'pixel-lite', prompt: 'a fox', resolution: '512x512' }),
    );
    const problem =
      resultProblem(result) ?? (result.images > 0 ? undefined : 'no image content reached the agent');
    return problem ? fail(problem) : pass(`${result.images} image`);
  });

  return out;
}

function resultProblem(result: Called): string | undefined {
  return result.isError ? `isError: ${result.text.slice(0, 160)}` : undefined;
}

async function step(run: () => Promise<Cell>): Promise<Cell> {
  try {
    return await run();
  } catch (error) {
    return fail(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
}

const pass = (note?: string): Cell => ({ status: 'pass', ...(note ? { note } : {}) });
const fail = (note: string): Cell => ({ status: 'fail', note });
const names = (tools: { name: string }[]) => tools.map((tool) => tool.name).join(', ');
