/**
 * Runs a CLI command in-process with what it writes to stdout and stderr captured, and the exit code it set read and
 * then restored (the test runner's own exit code must not change).
 */
export async function captureCli(run: () => Promise<unknown>): Promise<{ out: string; err: string; exitCode: number | undefined }> {
  const out: string[] = [];
  const err: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const ewrite = process.stderr.write.bind(process.stderr);
  process.stdout.write = (s: string | Uint8Array) => (out.push(String(s)), true);
  process.stderr.write = (s: string | Uint8Array) => (err.push(String(s)), true);
  const saved = process.exitCode;
  process.exitCode = undefined;
  let exitCode: number | undefined;
  try {
    await run();
  } finally {
    exitCode = typeof process.exitCode === 'number' ? process.exitCode : undefined;
    process.stdout.write = write;
    process.stderr.write = ewrite;
    process.exitCode = saved;
  }
  return { out: out.join(''), err: err.join(''), exitCode };
}
