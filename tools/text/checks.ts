import { InputError } from '../../src/errors.js';
import { isEnclaveModel, TEE_MODEL_PREFIX } from '../../src/tee/index.js';
import type { Conversation } from './conversation.js';
import type { ChatArgs } from './options.js';

/**
 * chat's rules that the spec states or that only the caller can fix, checked before anything is
 * sent: fields of one format only, what the completions format cannot carry, and tools that the
 * platform would refuse (duplicate names, parameters that are not an object schema, a tool_choice
 * naming no offered tool).
 */
/** Fields that exist in one format only are refused elsewhere, rather than silently dropped. */
export function checkArguments(args: ChatArgs, conversation: Conversation): void {
  const given = (names: (keyof ChatArgs)[]) =>
    names.filter((name) => args[name] !== undefined && args[name] !== false);
  if (args.format !== 'responses') {
    const stateful = given(['previous_response_id', 'store', 'retention_days', 'background']);
    if (stateful.length > 0) {
      throw new InputError(`${stateful.join(', ')} ${verb(stateful)} only with format "responses".`, {
        param: stateful[0],
        fix: 'Pass format: "responses" for a stored or background response.',
      });
    }
  } else if (args.background !== undefined) {
    if (args.store === false || args.retention_days === 0) {
      throw new InputError('A background response is read back when done, so it must be stored.', {
        param: 'background',
        fix: 'Drop store: false and retention_days: 0, or drop background.',
      });
    }
  }
  if (args.format === 'completions') {
    const unsupported = given(['tools', 'tool_choice', 'reasoning_effort', 'hide_reasoning']);
    if (unsupported.length > 0) {
      throw new InputError(
        `The completions format takes text only, so ${unsupported.join(', ')} cannot be used with it.`,
        {
          param: unsupported[0],
          fix: 'Use format "chat" (the default) for tools and reasoning.',
        },
      );
    }
    const toolTurn = conversation.turns.find((t) => t.role === 'tool' || t.calls.length > 0);
    if (toolTurn) {
      throw new InputError('The completions format takes text only; this conversation has tool calls.', {
        param: `messages[${toolTurn.at}]`,
        fix: 'Use format "chat" for a tool loop.',
      });
    }
  }
  checkSampling(args);
  checkTools(args);
  if (args.verify) checkVerify(args);
}

/** Where each control exists (spec 2 §4.1, §4.2): refused where the spec does not show it. */
const ONLY_IN: Partial<Record<keyof ChatArgs, readonly string[]>> = {
  top_k: ['messages'],
  thinking_budget: ['messages'],
  parallel_tools: ['messages'],
  stop: ['chat', 'messages'],
  top_p: ['chat', 'messages', 'completions'],
  service_tier: ['chat', 'messages'],
  cache_system: ['chat', 'messages'],
};

/** Sampling controls per format; the messages format's temperature stops at 1 (spec 2 §4.1). */
function checkSampling(args: ChatArgs): void {
  for (const [name, formats] of Object.entries(ONLY_IN)) {
    if (args[name as keyof ChatArgs] === undefined || formats.includes(args.format)) continue;
    throw new InputError(`${name} works only with format ${formats.map((f) => `"${f}"`).join(' or ')}.`, {
      param: name,
      fix: `Pass format: "${formats[0]}", or drop ${name}.`,
    });
  }
  if (args.format === 'messages' && args.temperature !== undefined && args.temperature > 1) {
    throw new InputError('The messages format takes temperature 0..1.', {
      param: 'temperature',
      fix: 'Pass a temperature of 1 or less, or use format "chat" (0..2).',
    });
  }
  const range = (name: keyof ChatArgs, ok: boolean, rule: string) => {
    if (args[name] !== undefined && !ok) throw new InputError(`${name} must be ${rule}.`, { param: name });
  };
  range('top_p', args.top_p === undefined || (args.top_p >= 0 && args.top_p <= 1), 'between 0 and 1');
  range('top_k', (args.top_k ?? 1) >= 1, 'at least 1');
  range('thinking_budget', (args.thinking_budget ?? 1024) >= 1024, 'at least 1024 (spec 2 §8)');
  range(
    'stop',
    args.stop === undefined || (args.stop.length >= 1 && args.stop.length <= 4 && args.stop.every(Boolean)),
    '1 to 4 non-empty strings',
  );
  if (args.thinking_budget !== undefined && args.reasoning_effort !== undefined) {
    throw new InputError('Pass thinking_budget or reasoning_effort, not both.', { param: 'thinking_budget' });
  }
}

/** A signature is over the bytes of one exchange with an enclave: refused before anything is paid. */
function checkVerify(args: ChatArgs): void {
  if (!isEnclaveModel(args.model)) {
    throw new InputError(
      `verify works only with enclave models (ids starting with ${TEE_MODEL_PREFIX}); "${args.model}" signs nothing.`,
      {
        param: 'verify',
        fix: `Pick a model from models_list with filter "${TEE_MODEL_PREFIX}", or drop verify.`,
      },
    );
  }
  if (args.background !== undefined) {
    throw new InputError('verify checks the reply of this exchange; a background response is read later.', {
      param: 'verify',
      fix: 'Drop background, or call tee_verify with the response id once it is done.',
    });
  }
}

const verb = (names: unknown[]) => (names.length > 1 ? 'work' : 'works');

function checkTools(args: ChatArgs): void {
  const names = new Set<string>();
  (args.tools ?? []).forEach((tool, i) => {
    if (names.has(tool.name)) {
      throw new InputError(`Two tools are named "${tool.name}".`, {
        param: `tools[${i}].name`,
        fix: 'Give every tool a unique name.',
      });
    }
    names.add(tool.name);
    const p = tool.parameters;
    const isObject = p !== null && typeof p === 'object' && !Array.isArray(p);
    if (p !== undefined && (!isObject || ('type' in p && p.type !== 'object'))) {
      throw new InputError(`tools[${i}].parameters must be a JSON Schema object.`, {
        param: `tools[${i}].parameters`,
        fix: 'Pass {type: "object", properties: {...}, required: [...]}.',
      });
    }
  });
  const choice = args.tool_choice;
  if (choice === undefined || choice === 'auto' || choice === 'none') return;
  if (names.size === 0) {
    throw new InputError(`tool_choice "${choice}" needs tools.`, {
      param: 'tool_choice',
      fix: 'Pass tools: [{name, description, parameters}], or drop tool_choice.',
    });
  }
  if (choice !== 'required' && !names.has(choice)) {
    throw new InputError(`tool_choice names "${choice}", which is not among the tools.`, {
      param: 'tool_choice',
      fix: `Use auto, none, required or one of: ${[...names].join(', ')}.`,
    });
  }
}
