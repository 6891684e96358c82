import type { ProgressFn } from '../ops/progress.js';

interface ToolExtra {
  _meta?: { progressToken?: string | number } & Record<string, unknown>;
  sendNotification: (n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
}

/**
 * MCP progress notifications, sent only when the client asked for them with a progress token.
 * Progress must increase on every notification, so a step counter stands in when ops report none.
 */
export function mcpProgress(extra: ToolExtra): ProgressFn {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let step = 0;
  return (e) => {
    step = Math.max(step + 1, e.progress ?? 0);
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: step, ...(e.total ? { total: Math.max(e.total, step) } : {}), message: e.message },
      })
      .catch(() => {});
  };
}
