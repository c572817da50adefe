import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEATHER } from '../../helpers/chat.js';
import { type Harness, type Out, out, startHarness, textOf } from '../../helpers/harness.js';

/** Tool loops through `chat` (spec 2 §4.1, §4.2, §6): calls out, results back in, in every format. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const QUESTION = 'Use the get_weather tool for Paris';
const PATHS = {
  chat: '/api/v1/chat/completions',
  messages: '/api/v1/messages',
  responses: '/api/v1/responses',
};
const MODEL = 'openai/gpt-sandbox';

const lastSent = (path: string) => [...h.sandbox.requests].reverse().find((r) => r.path === path);

describe('a two-step tool loop through chat', () => {
  for (const format of ['chat', 'messages', 'responses'] as const) {
    for (const stream of [true, false]) {
      it(`${format}, ${stream ? 'streamed' : 'not streamed'}: the call comes back structured, the result goes back in`, async () => {
        h.sandbox.clearRequests();
        const first = await h.call('chat', {
          model: MODEL,
          format,
          stream,
          prompt: QUESTION,
          tools: [WEATHER],
        });
        expect(first.isError, textOf(first)).toBeFalsy();
        const call = out(first).tool_calls?.[0] as Out;
        // Streamed, the sandbox sends the argument text in several pieces; joined they must be exact.
        expect(out(first).tool_calls).toHaveLength(1);
        expect(call).toEqual({ id: expect.any(String), name: 'get_weather', arguments: { city: 'Paris' } });
        expect(out(first).finish_reason).toBe(
          format === 'messages' ? 'tool_use' : format === 'chat' ? 'tool_calls' : 'stop',
        );
        expect(textOf(first)).toContain(`Tool call ${call.id}: get_weather({"city":"Paris"})`);
        expect(lastSent(PATHS[format])?.json).toMatchObject({ stream, tools: [expect.any(Object)] });

        const second = await h.call('chat', {
          model: MODEL,
          format,
          stream,
          tools: [WEATHER],
          messages: [
            { role: 'user', content: QUESTION },
            { role: 'assistant', content: out(first).text, tool_calls: out(first).tool_calls },
            { role: 'tool', tool_call_id: call.id, content: '18°C and sunny' },
          ],
        });
        expect(second.isError, textOf(second)).toBeFalsy();
        expect(out(second).tool_calls).toBeUndefined();
        expect(out(second).text).toContain('Using the get_weather result: 18°C and sunny');
        expect(wireToolTurn(format, lastSent(PATHS[format])!.json as Out)).toEqual({
          id: call.id,
          args: format === 'messages' ? { city: 'Paris' } : '{"city":"Paris"}',
          result: '18°C and sunny',
        });
      });
    }
  }

  it('continues a stored response with only the tool result (previous_response_id)', async () => {
    const first = await h.call('chat', {
      model: MODEL,
      format: 'responses',
      prompt: QUESTION,
      tools: [WEATHER],
    });
    const id = out(first).tool_calls[0].id;
    const second = await h.call('chat', {
      model: MODEL,
      format: 'responses',
      previous_response_id: out(first).response_id,
      tools: [WEATHER],
      messages: [{ role: 'tool', tool_call_id: id, content: 'rain' }],
    });
    expect(second.isError, textOf(second)).toBeFalsy();
    expect(out(second).text).toContain('Using the get_weather result: rain');
    expect(lastSent(PATHS.responses)?.json).toMatchObject({
      previous_response_id: out(first).response_id,
      input: [{ type: 'function_call_output', call_id: id, output: 'rain' }],
    });
  });
});

/** The assistant's call and the tool's answer as each wire format carries them. */
function wireToolTurn(format: string, body: Out) {
  if (format === 'chat') {
    const [, assistant, tool] = body.messages;
    const call = assistant.tool_calls[0];
    return { id: call.id, args: call.function.arguments, result: tool.content };
  }
  if (format === 'messages') {
    const [, assistant, user] = body.messages;
    const use = assistant.content.find((b: Out) => b.type === 'tool_use');
    const result = user.content.find((b: Out) => b.type === 'tool_result');
    expect(result.tool_use_id).toBe(use.id);
    return { id: use.id, args: use.input, result: result.content };
  }
  const call = body.input.find((i: Out) => i.type === 'function_call');
  const output = body.input.find((i: Out) => i.type === 'function_call_output');
  expect(output.call_id).toBe(call.call_id);
  return { id: call.call_id, args: call.arguments, result: output.output };
}

describe('tool choice and tool arguments', () => {
  it('forces a named tool in each format syntax', async () => {
    const other = { name: 'get_time', parameters: { type: 'object', properties: {} } };
    for (const format of ['chat', 'messages', 'responses'] as const) {
      const result = await h.call('chat', {
        model: MODEL,
        format,
        stream: false,
        prompt: 'What is happening?',
        tools: [WEATHER, other],
        tool_choice: 'get_time',
      });
      expect(out(result).tool_calls, format).toEqual([
        { id: expect.any(String), name: 'get_time', arguments: {} },
      ]);
      const sent = lastSent(PATHS[format])?.json as Out;
      expect(sent.tool_choice).toEqual(
        format === 'messages'
          ? { type: 'tool', name: 'get_time' }
          : format === 'responses'
            ? { type: 'function', name: 'get_time' }
            : { type: 'function', function: { name: 'get_time' } },
      );
    }
  });

  it('sends required as any on the messages format', async () => {
    await h.call('chat', {
      model: MODEL,
      format: 'messages',
      prompt: 'anything',
      tools: [WEATHER],
      tool_choice: 'required',
    });
    expect((lastSent(PATHS.messages)!.json as Out).tool_choice).toEqual({ type: 'any' });
  });

  it('refuses a tool_choice that names no offered tool, before sending', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('chat', {
      model: MODEL,
      prompt: 'x',
      tools: [WEATHER],
      tool_choice: 'get_time',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid_input[\s\S]*tool_choice[\s\S]*get_weather/);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('refuses parameters that are not an object schema, and a tool message answering nothing', async () => {
    h.sandbox.clearRequests();
    const bad = await h.call('chat', {
      model: MODEL,
      prompt: 'x',
      tools: [{ name: 'f', parameters: { type: 'string' } }],
    });
    expect(textOf(bad)).toMatch(/tools\[0\]\.parameters must be a JSON Schema object/);
    const orphan = await h.call('chat', {
      model: MODEL,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', tool_calls: [{ id: 'call_1', name: 'f', arguments: {} }] },
        { role: 'tool', tool_call_id: 'call_9', content: 'r' },
      ],
    });
    expect(orphan.isError).toBe(true);
    expect(textOf(orphan)).toMatch(/messages\[2\]: tool_call_id "call_9" answers no tool call/);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('passes the platform error through when the model has no tool use', async () => {
    const result = await h.call('chat', {
      model: 'meta/llama-sandbox-8b',
      prompt: QUESTION,
      tools: [WEATHER],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/bad_request, HTTP 400[\s\S]*model_not_available[\s\S]*Request id: req_/);
  });
});
