import { z } from 'zod';

/**
 * The call that continues a job: data, so a replica taking a call over runs it as it is, and the
 * sentence a person or model reads (`video_status with run_id "abc"`) is written only where text is.
 */
export const NextCall = z.object({ tool: z.string(), arguments: z.record(z.string(), z.string()) });
export type NextCall = z.infer<typeof NextCall>;

/** The call, without the arguments left undefined (an optional one the caller did not give). */
export function nextCall(tool: string, args: Record<string, string | undefined> = {}): NextCall {
  const given = Object.entries(args).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { tool, arguments: Object.fromEntries(given) };
}

/** The usual continuation: the tool that follows a run, by its run id. */
export function runNext(tool: string, runId: string): NextCall {
  return nextCall(tool, { run_id: runId });
}

/** `evals_read with operation "experiments.get", id "x"`: how the call reads in text. */
export function sayNext(next: NextCall): string {
  const args = Object.entries(next.arguments).map(([name, value]) => `${name} ${JSON.stringify(value)}`);
  return args.length ? `${next.tool} with ${args.join(', ')}` : next.tool;
}
