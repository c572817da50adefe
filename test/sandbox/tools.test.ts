import { describe, expect, it } from 'vitest';
import { jsonFrames, post, readFrames, useSandbox } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
type Json = Record<string, any>;

const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city'],
};
const searchSchema = {
  type: 'object',
  properties: { query: { type: 'string' }, count: { type: 'integer' } },
  required: ['query', 'count'],
};
const chatTools = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'Weather now', parameters: weatherSchema },
  },
  { type: 'function', function: { name: 'web_search', description: 'Search', parameters: searchSchema } },
];
const messagesTools = [
  { name: 'get_weather', description: 'Weather now', input_schema: weatherSchema },
  { name: 'web_search', description: 'Search', input_schema: searchSchema },
];
const responsesTools = [
  { type: 'function', name: 'get_weather', description: 'Weather now', parameters: weatherSchema },
  { type: 'function', name: 'web_search', description: 'Search', parameters: searchSchema },
];
const ASK = 'Use the get_weather tool for Paris';

describe('sandbox tool calls: chat completions', () => {
  const sandbox = useSandbox();
  const chat = async (extra: Json) => {
    const res = await post(sandbox(), '/api/v1/chat/completions', {
      model: 'openai/gpt-sandbox',
      messages: [{ role: 'user', content: ASK }],
      tools: chatTools,
      ...extra,
    });
    return { res, body: (await res.json()) as Json };
  };

  it('calls the tool the prompt asks for, with required string arguments taken from the prompt', async () => {
    const { res, body } = await chat({});
    expect(res.status).toBe(200);
    const choice = body.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
    expect(body.usage.completion_tokens).toBe(Math.ceil('get_weather{"city":"Paris"}'.length / 4));
  });

  it('streams the call as an id-and-name chunk, then argument pieces that join back exactly', async () => {
    const res = await post(sandbox(), '/api/v1/chat/completions', {
      model: 'openai/gpt-sandbox',
      messages: [{ role: 'user', content: 'Use get_weather to check New York City in fahrenheit' }],
      tools: chatTools,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = jsonFrames(await readFrames(res)) as Json[];
    const deltas = chunks.flatMap((c) => c.choices.flatMap((ch: Json) => ch.delta.tool_calls ?? []));
    expect(deltas[0]).toEqual({
      index: 0,
      id: expect.stringMatching(/^call_/),
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    const pieces = deltas.slice(1).map((d: Json) => d.function.arguments);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.join('')).toBe('{"city":"New York City","unit":"fahrenheit"}');
    expect(deltas.slice(1).every((d: Json) => d.id === undefined && d.index === 0)).toBe(true);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)!.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('makes parallel calls in the order the prompt names the tools, unless parallel_tool_calls is false', async () => {
    const content = 'Call get_weather with city=Oslo and web_search for "aurora forecast" with count 3';
    const both = await chat({ messages: [{ role: 'user', content }] });
    expect(both.body.choices[0].message.tool_calls.map((t: Json) => t.function)).toEqual([
      { name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { name: 'web_search', arguments: '{"query":"aurora forecast","count":3}' },
    ]);
    const ids = both.body.choices[0].message.tool_calls.map((t: Json) => t.id);
    expect(new Set(ids).size).toBe(2);
    const one = await chat({ messages: [{ role: 'user', content }], parallel_tool_calls: false });
    expect(one.body.choices[0].message.tool_calls).toHaveLength(1);
  });

  it('honours tool_choice none, required and a named function', async () => {
    const none = await chat({ tool_choice: 'none' });
    expect(none.body.choices[0].finish_reason).toBe('stop');
    expect(none.body.choices[0].message.tool_calls).toBeUndefined();
    const required = await chat({
      messages: [{ role: 'user', content: 'Hello there' }],
      tool_choice: 'required',
    });
    expect(required.body.choices[0].message.tool_calls[0].function.name).toBe('get_weather');
    const auto = await chat({ messages: [{ role: 'user', content: 'Hello there' }] });
    expect(auto.body.choices[0].finish_reason).toBe('stop');
    const named = await chat({ tool_choice: { type: 'function', function: { name: 'web_search' } } });
    expect(named.body.choices[0].message.tool_calls[0].function).toEqual({
      name: 'web_search',
      arguments: '{"query":"Paris","count":0}',
    });
  });

  it('answers with the tool result after a tool message, closing a two-step loop', async () => {
    const first = await chat({});
    const call = first.body.choices[0].message.tool_calls[0];
    const second = await chat({
      messages: [
        { role: 'user', content: ASK },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"temp_c":21,"sky":"clear"}' },
      ],
    });
    expect(second.body.choices[0].finish_reason).toBe('stop');
    expect(second.body.choices[0].message.content).toBe(
      `Sandbox reply to: "${ASK}". Using the get_weather result: {"temp_c":21,"sky":"clear"}`,
    );
  });

  it('rejects a tool message that answers no call, bad tools, and a tool_choice naming an unknown tool', async () => {
    const orphan = await chat({
      messages: [
        { role: 'user', content: ASK },
        { role: 'tool', tool_call_id: 'call_nope', content: 'x' },
      ],
    });
    expect(orphan.res.status).toBe(400);
    expect(orphan.body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'messages' });
    const badName = await chat({ tools: [{ type: 'function', function: { name: 'bad name!' } }] });
    expect(badName.body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'tools' });
    const badSchema = await chat({
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'string' } } }],
    });
    expect(badSchema.body.error).toMatchObject({ code: 'invalid_json_schema', param: 'tools' });
    const unknown = await chat({ tool_choice: { type: 'function', function: { name: 'nope' } } });
    expect(unknown.body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'tool_choice' });
    const forcedWithout = await chat({ tools: undefined, tool_choice: 'required' });
    expect(forcedWithout.res.status).toBe(400);
  });

  it('refuses tools on a model without tool use: tool_choice_unsupported when forced', async () => {
    const auto = await chat({ model: 'meta/llama-sandbox-8b' });
    expect(auto.body.error).toMatchObject({ code: 'model_not_available', param: 'tools' });
    const forced = await chat({ model: 'meta/llama-sandbox-8b', tool_choice: 'required' });
    expect(forced.body.error).toMatchObject({ code: 'tool_choice_unsupported', param: 'tool_choice' });
    const none = await chat({ model: 'meta/llama-sandbox-8b', tool_choice: 'none' });
    expect(none.res.status).toBe(200);
  });
});

describe('sandbox tool calls: messages format', () => {
  const sandbox = useSandbox();
  const send = async (extra: Json) => {
    const res = await post(sandbox(), '/api/v1/messages', {
      model: 'anthropic/claude-sandbox',
      max_tokens: 1024,
      messages: [{ role: 'user', content: ASK }],
      tools: messagesTools,
      ...extra,
    });
    return { res, body: (await res.json()) as Json };
  };

  it('returns a tool_use block with the parsed input and stop_reason tool_use', async () => {
    const { body } = await send({});
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content).toEqual([
      {
        type: 'tool_use',
        id: expect.stringMatching(/^toolu_/),
        name: 'get_weather',
        input: { city: 'Paris' },
      },
    ]);
  });

  it('streams input_json_delta pieces inside a tool_use block', async () => {
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/messages', {
        model: 'anthropic/claude-sandbox',
        max_tokens: 1024,
        messages: [{ role: 'user', content: ASK }],
        tools: messagesTools,
        stream: true,
      }),
    );
    const events = frames.map((f) => JSON.parse(f.data) as Json);
    const start = events.find((e) => e.type === 'content_block_start');
    expect(start?.content_block).toEqual({
      type: 'tool_use',
      id: expect.stringMatching(/^toolu_/),
      name: 'get_weather',
      input: {},
    });
    const partial = events
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => {
        expect(e.delta.type).toBe('input_json_delta');
        return e.delta.partial_json as string;
      });
    expect(partial.filter(Boolean).length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(partial.join(''))).toEqual({ city: 'Paris' });
    expect(events.find((e) => e.type === 'message_delta')?.delta.stop_reason).toBe('tool_use');
  });

  it('honours tool_choice any / none / {type: tool}, and disable_parallel_tool_use', async () => {
    const hello = [{ role: 'user', content: 'Hello there' }];
    expect((await send({ messages: hello, tool_choice: { type: 'any' } })).body.stop_reason).toBe('tool_use');
    expect((await send({ messages: hello, tool_choice: 'any' })).body.stop_reason).toBe('tool_use');
    expect((await send({ tool_choice: { type: 'none' } })).body.stop_reason).toBe('end_turn');
    const named = await send({ tool_choice: { type: 'tool', name: 'web_search' } });
    expect(named.body.content[0]).toMatchObject({ name: 'web_search', input: { query: 'Paris', count: 0 } });
    const both = [{ role: 'user', content: 'Use get_weather for Rome and web_search for "Rome food"' }];
    expect((await send({ messages: both })).body.content).toHaveLength(2);
    const single = await send({
      messages: both,
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(single.body.content).toHaveLength(1);
    expect((await send({ messages: both, disable_parallel_tool_use: true })).body.content).toHaveLength(1);
  });

  it('answers from a tool_result in the next user message', async () => {
    const first = await send({});
    const use = first.body.content[0];
    const second = await send({
      messages: [
        { role: 'user', content: ASK },
        { role: 'assistant', content: first.body.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 24 C' }] },
      ],
    });
    expect(second.body.stop_reason).toBe('end_turn');
    expect(second.body.content[0].text).toBe(
      `Sandbox reply to: "${ASK}". Using the get_weather result: Sunny, 24 C`,
    );
  });

  it('rejects a tool_result without a matching tool_use, and a tool without input_schema', async () => {
    const orphan = await send({
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'x' }] }],
    });
    expect(orphan.res.status).toBe(400);
    expect(orphan.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', param: 'messages' },
    });
    const noSchema = await send({ tools: [{ name: 'get_weather' }] });
    expect(noSchema.body.error).toMatchObject({
      param: 'tools',
      message: expect.stringContaining('input_schema'),
    });
  });
});

describe('sandbox tool calls: responses format', () => {
  const sandbox = useSandbox();
  const create = async (extra: Json) => {
    const res = await post(sandbox(), '/api/v1/responses', {
      model: 'openai/gpt-sandbox',
      input: ASK,
      tools: responsesTools,
      ...extra,
    });
    return { res, body: (await res.json()) as Json };
  };

  it('returns a function_call output item with a call_id', async () => {
    const { body } = await create({});
    expect(body.output).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: expect.stringMatching(/^call_/),
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
    ]);
    expect(body.output_text).toBe('');
  });

  it('streams function_call_arguments deltas and a done event with the whole arguments', async () => {
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/responses', {
        model: 'openai/gpt-sandbox',
        input: ASK,
        tools: responsesTools,
        stream: true,
      }),
    );
    const events = jsonFrames(frames) as Json[];
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const added = events.find((e) => e.type === 'response.output_item.added');
    expect(added?.item).toMatchObject({
      type: 'function_call',
      name: 'get_weather',
      arguments: '',
      status: 'in_progress',
    });
    const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.every((d) => d.item_id === added?.item.id)).toBe(true);
    const done = events.find((e) => e.type === 'response.function_call_arguments.done');
    expect(deltas.map((d) => d.delta).join('')).toBe(done?.arguments);
    expect(done?.arguments).toBe('{"city":"Paris"}');
    expect(events.at(-1)).toMatchObject({ type: 'response.completed' });
  });

  it('answers from function_call_output items, inline or through previous_response_id', async () => {
    const first = await create({});
    const call = first.body.output[0];
    const chained = await create({
      previous_response_id: first.body.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":18}' }],
    });
    expect(chained.body.output_text).toBe(
      `Sandbox reply to: "${ASK}". Using the get_weather result: {"temp_c":18}`,
    );
    const inline = await create({
      input: [
        { role: 'user', content: ASK },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":18}' },
      ],
    });
    expect(inline.body.output_text).toBe(chained.body.output_text);
  });

  it('honours tool_choice and rejects an output for an unknown call or a non-function tool', async () => {
    expect((await create({ tool_choice: 'none' })).body.output[0].type).toBe('message');
    const named = await create({ tool_choice: { type: 'function', name: 'web_search' } });
    expect(named.body.output[0].name).toBe('web_search');
    const orphan = await create({
      input: [{ type: 'function_call_output', call_id: 'call_x', output: 'x' }],
    });
    expect(orphan.res.status).toBe(400);
    expect(orphan.body.error).toMatchObject({ code: 'invalid_parameter_value', param: 'input' });
    const hosted = await create({ tools: [{ type: 'code_interpreter' }] });
    expect(hosted.body.error).toMatchObject({ param: 'tools' });
  });
});
