import type { Progress } from './define-tool.js';

export type SendProgress = (params: {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}) => Promise<void>;

/**
 * Progress only when the caller sent a progress token; values strictly increase; bursts are
 * throttled (the first report goes out at once, the latest pending one goes out at the end of
 * the window, and `flush()` sends whatever is still pending when the tool finishes).
 */
export function createProgress(
  token: string | number | undefined,
  send: SendProgress,
  throttleMs = 100,
): Required<Progress> & { flush(): Promise<void> } {
  if (token === undefined) return { report() {}, discard() {}, flush: async () => {} };
  let last = 0;
  let lastSentAt = 0;
  let pending: { message: string; fraction?: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();

  const emit = () => {
    if (!pending) return;
    const { message, fraction } = pending;
    pending = undefined;
    const wanted = fraction === undefined ? last + 1 : Math.min(100, Math.max(0, fraction * 100));
    const progress = wanted > last ? wanted : last + 0.001;
    last = progress;
    lastSentAt = Date.now();
    // `total` only while the value stays within it; a value may never exceed its total.
    const params =
      fraction === undefined || progress > 100
        ? { progressToken: token, progress, message }
        : { progressToken: token, progress, total: 100, message };
    chain = chain.then(() => send(params)).catch(() => {});
  };

  return {
    report(message, fraction) {
      pending = { message, fraction };
      const wait = throttleMs - (Date.now() - lastSentAt);
      if (wait <= 0) {
        if (timer) clearTimeout(timer);
        timer = undefined;
        emit();
      } else {
        timer ??= setTimeout(() => {
          timer = undefined;
          emit();
        }, wait);
      }
    },
    discard() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      emit();
      await chain;
    },
  };
}
