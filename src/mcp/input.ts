import { createHash, randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  PROTOCOL_VERSION_META_KEY,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { AskFirst } from '../credentials.js';
import { isRecord } from '../lang.js';

/**
 * Asking the person mid-call (sign-in link, a confirmation), the 2026-07-28 way: the call returns
 * `input_required` with the question, the client answers and calls again, and the call runs again
 * with the answer. On 2025 connections the SDK's shim asks with a real elicitation and re-enters,
 * so one code path serves both eras. A call re-runs from its start: ask before changing anything.
 */

/** Thrown where an answer is needed and not there yet; the tools/call handler turns it into input_required. */
export class NeedsInput extends AskFirst {
  constructor(
    readonly key: string,
    readonly request: InputRequest,
  ) {
    super(`input needed: ${key}`);
  }
}

/** What the signed request state carries between rounds: which call, and the answers so far. */
interface CallState {
  call: string;
  answers: Record<string, unknown>;
}

/**
 * The state codec: HMAC-signed, short-lived. Its key is the runtime's (shared by the replicas on
 * one store, so a retry may land on any of them), or made here for a server built alone; a round
 * started under another key is refused (the retry then asks again).
 */
export function createStateCodec(key: Uint8Array = randomBytes(32)): RequestStateCodec<CallState> {
  return createRequestStateCodec<CallState>({ key, ttlSeconds: 900 });
}

const codecs = new WeakMap<Uint8Array, RequestStateCodec<CallState>>();

/** One codec per key, not per server: a 2026 request builds a server each time. */
export function stateCodecFor(key: Uint8Array): RequestStateCodec<CallState> {
  let codec = codecs.get(key);
  if (!codec) {
    codec = createStateCodec(key);
    codecs.set(key, codec);
  }
  return codec;
}

/** The answers of this call: those carried in verified state for this very call, plus this round's. */
export function answersFor(ctx: ServerContext, call: () => string): Record<string, unknown> {
  const state = ctx.mcpReq.requestState<CallState>();
  if (!state || typeof state !== 'object' || state.call !== call()) return {};
  return { ...state.answers, ...ctx.mcpReq.inputResponses };
}

export type Asker = (key: string, request: InputRequest) => unknown;

/** The answer to one question, or NeedsInput so the question goes out. */
export function asker(answers: Record<string, unknown>): Asker {
  return (key: string, request: InputRequest): unknown => {
    if (key in answers) return answers[key];
    throw new NeedsInput(key, request);
  };
}

/** The input_required result for a question, with the state that lets the retry find its answers. */
export async function askFor(
  codec: RequestStateCodec<CallState>,
  call: string,
  answers: Record<string, unknown>,
  needed: NeedsInput,
): Promise<InputRequiredResult> {
  return inputRequired({
    inputRequests: { [needed.key]: needed.request },
    requestState: await codec.mint({ call, answers }),
  });
}

/** Binds state to the tool and its exact arguments: an answer given for one call is never reused for another. */
export function callIdentity(tool: string, args: unknown): string {
  return createHash('sha256')
    .update(`${tool}\n${JSON.stringify(args ?? {})}`)
    .digest('base64url');
}

/** A 2026-07-28 request carries the per-request `_meta` envelope; a 2025 one does not. */
export function isModern(ctx: ServerContext): boolean {
  const envelope: Record<string, unknown> = { ...ctx.mcpReq.envelope };
  return envelope[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/** Which kinds of elicitation the caller's client can show (per request on 2026, per connection on 2025). */
export function elicitationOf(server: Server, ctx: ServerContext): { form: boolean; url: boolean } {
  // The envelope's keys are hidden from the SDK's public types; it is the client's own claim.
  const envelope: Record<string, unknown> = { ...ctx.mcpReq.envelope };
  const declared = envelope[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities();
  const elicitation = isRecord(declared) && isRecord(declared.elicitation) ? declared.elicitation : undefined;
  if (!elicitation) return { form: false, url: false };
  // An empty elicitation capability means forms (2025-06-18); later clients name form and url.
  return {
    form: elicitation.form !== undefined || elicitation.url === undefined,
    url: elicitation.url !== undefined,
  };
}

export { inputRequired };
