/**
 * Hand-back on shutdown: when a draining server reaches its deadline, every wait for a platform
 * job ends as if its time budget had run out, so each call answers with its job id and the call
 * that continues it (`video_status with run_id …`) instead of being cut off. Process-wide: the
 * waits run deep inside tools, which know nothing of servers.
 */
const handBack = new AbortController();

/** Aborted once the process hands its jobs back. */
export const handBackSignal: AbortSignal = handBack.signal;

export function handBackJobs(): void {
  handBack.abort();
}
