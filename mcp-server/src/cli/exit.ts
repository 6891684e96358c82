/**
 * Ending the CLI without losing output. On Linux a pipe to stdout is written asynchronously once the
 * kernel's 64 KiB pipe buffer is full, so `process.exit()` straight after a large write cut `--json | jq`
 * at 65,536 bytes. Every exit of a verb goes through here: it waits until what was written has been
 * handed to the kernel, then exits.
 */

const flushed = (stream: NodeJS.WriteStream): Promise<void> =>
  new Promise((resolve) => {
    // An empty write's callback runs after every earlier chunk is flushed (or the stream failed).
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });

/** Waits for stdout and stderr to drain, then exits with the code. */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/**
 * A reader that goes away (`| head`) is not an error of the verb: stop quietly with the shell's usual
 * 141 (128 + SIGPIPE) instead of an unhandled EPIPE stack trace.
 */
export function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(141);
      throw e;
    });
  }
}
