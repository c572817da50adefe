import type { SseBody } from './sse.js';

/**
 * The exact bytes of one exchange, kept only when a call asks for them (`capture: true`). An
 * enclave signs sha256 of the request body it received and of the reply it sent, so a verifier
 * needs the bytes as they crossed the wire, never a re-serialization of the parsed JSON.
 */
export interface CapturedExchange {
  /** The request body bytes as sent (empty when the call had no body). */
  request: Buffer;
  /** The reply body bytes as received; for a stream, every chunk concatenated in order. */
  response: Buffer;
  /** False when the body broke or was cut before its end: `response` is then only a prefix. */
  complete: boolean;
}

/** The bytes a body delivered, once it is done. */
export interface TappedBytes {
  bytes: Buffer;
  complete: boolean;
}

/**
 * Passes a stream body's chunks through untouched while keeping them. `ended` resolves (it never
 * rejects, so nobody has to await it) once the body ends, breaks, or its reader lets go; the SSE
 * reader drains the rest of a body after the terminal marker, so trailing bytes are kept too.
 */
export function tapBody(body: SseBody): { body: SseBody; ended: Promise<TappedBytes> } {
  const chunks: Uint8Array[] = [];
  let settle: (tapped: TappedBytes) => void = () => {};
  const ended = new Promise<TappedBytes>((resolve) => {
    settle = resolve;
  });
  async function* tapped(): AsyncGenerator<Uint8Array> {
    let complete = false;
    try {
      for await (const chunk of body) {
        chunks.push(chunk);
        yield chunk;
      }
      complete = true;
    } finally {
      settle({ bytes: Buffer.concat(chunks), complete });
    }
  }
  const generator = tapped();
  // The reader may destroy a body that stays open too long after its end; the tap passes that on.
  return { body: Object.assign(generator, { destroy: () => body.destroy?.() }), ended };
}
