/** What an entry does when a verb throws past its own error handling: the message on stderr, exit 1 once flushed. */
export function failVerb(e: unknown): void {
  process.stderr.write(`cql-tuner: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
  void import('./exit.js').then((m) => m.exitWhenFlushed(1));
}
