/**
 * Progress as every layer reports it: a leaf, so the waits in src/jobs and the tool context above
 * them share the type without importing each other.
 */

/** Reports progress to the client; a no-op unless the caller sent a progress token. */
export interface Progress {
  /** A readable message; `fraction` in [0,1] when the share done is known. Never goes backwards. */
  report(message: string, fraction?: number): void;
  /** Drops a report still waiting out the throttle, when the result is about to say it all. */
  discard?(): void;
}
