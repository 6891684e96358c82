import Table from 'cli-table3';
import { describeError } from '../ops/errors.js';

/** Everything a verb prints goes through here: JSON on stdout with --json, text otherwise; errors on stderr. */
export interface OutputOptions {
  json?: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printText(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function terminalTable(headers: string[], rows: (string | number | null)[][]): string {
  const t = new Table({ head: headers, style: { head: [], border: [] } });
  for (const r of rows) t.push(r.map((c) => (c === null ? '—' : String(c))));
  return t.toString();
}

/** Prints an error as {error:{code,message,fix}} (--json) or two plain lines, and sets the exit code. */
export function failWith(e: unknown, opts: OutputOptions, exitCode?: number): void {
  const d = describeError(e);
  exitCode ??= d.refused ? 2 : 1;
  if (opts.json) printJson({ error: { code: d.code, message: d.message, fix: d.fix } });
  else process.stderr.write(`error [${d.code}]: ${d.message}\nfix: ${d.fix}\n`);
  process.exitCode = exitCode;
}
