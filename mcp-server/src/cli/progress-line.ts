import type { ProgressEvent, ProgressFn } from '../ops/progress.js';

/**
 * Draws one self-overwriting status line on stderr when it is a terminal, plain lines otherwise
 * (CI logs), so stdout stays clean for --json.
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): ProgressFn & { done(): void } {
  const tty = stream.isTTY === true;
  const started = Date.now();
  let drawn = false;
  let last = '';
  const fn = ((e: ProgressEvent) => {
    const secs = ((Date.now() - started) / 1000).toFixed(0);
    const frac = e.total ? ` [${e.progress ?? 0}/${e.total}]` : '';
    const line = `… ${e.message}${frac} (${secs}s)`;
    if (tty) {
      const width = Math.max(20, (stream.columns ?? 100) - 1);
      stream.write(`\r\x1b[2K${line.slice(0, width)}`);
      drawn = true;
    } else if (e.message !== last) {
      stream.write(`${line}\n`);
    }
    last = e.message;
  }) as ProgressFn & { done(): void };
  fn.done = () => {
    if (tty && drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  return fn;
}
