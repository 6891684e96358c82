/** Progress of long work, reported by ops and drawn by the CLI (stderr line) or sent as MCP notifications. */
export interface ProgressEvent {
  message: string;
  /** Units done so far, when countable. */
  progress?: number;
  /** Units in all, when known. */
  total?: number;
}

export type ProgressFn = (event: ProgressEvent) => void;

export const noProgress: ProgressFn = () => {};
