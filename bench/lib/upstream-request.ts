import { Agent, request } from 'undici';

/** One request a bare tool or the direct path sends: what orbit-mcp's tool sends for the bench's arguments. */
export interface UpstreamRequest {
  method: 'GET' | 'POST';
  path: string;
  accept: string;
  body?: string;
}

/** Sends requests as orbit-mcp does: one keep-alive undici Agent, the whole reply read as text. */
export function upstreamCaller(baseUrl: string, apiKey: string) {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  return {
    async send(sent: UpstreamRequest): Promise<{ status: number; text: string }> {
      const res = await request(`${baseUrl}${sent.path}`, {
        method: sent.method,
        dispatcher: agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: sent.accept,
          ...(sent.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: sent.body,
      });
      return { status: res.statusCode, text: await res.body.text() };
    },
    close: () => agent.close(),
  };
}
