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

/**
 * Error codes that mean "refused, or bad input": exit 2, as for a usage error. Everything else (a node
 * unreachable, a disk full, a run that failed) exits 1: the operation ran and failed.
 */
const REFUSED =
  /^(?:BAD_|STRESS_BAD_|INVALID|NOT_A_|NO_INPUT$|NO_CONTACT_POINTS$|NO_CONFIG_FILES$|TOO_LARGE$|TWO_YAMLS$|UNKNOWN_|STRESS_TOO_LONG$|STRESS_CONFIRM_REQUIRED$|STRESS_TARGET_NOT_ALLOWED$|DEVICE_MOUNTED$|DEVICE_IN_USE$|NOT_ALLOWED$|SUBCOMMAND_NOT_ALLOWED$|CONFIRMATION_REQUIRED$|BAD_TOPOLOGY$)/;

/** Prints an error as {error:{code,message,fix}} (--json) or two plain lines, and sets the exit code. */
export function failWith(e: unknown, opts: OutputOptions, exitCode?: number): void {
  const d = describeError(e);
  exitCode ??= REFUSED.test(d.code) ? 2 : 1;
  if (opts.json) printJson({ error: d });
  else process.stderr.write(`error [${d.code}]: ${d.message}\nfix: ${d.fix}\n`);
  process.exitCode = exitCode;
}
