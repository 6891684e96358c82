/**
 * Commander-level parsing of the cluster flags shared with `diagnose` (cluster-options.ts): they stay numbers for
 * the verbs that read them directly. Every other numeric flag is checked by its operation's schema instead
 * (validate-flags.ts: cliNumber + parseFlags), which also enforces its range.
 */
import { InvalidArgumentError } from 'commander';

/** A whole number (digits only); commander reports anything else as an invalid argument (exit 2). */
export function intArg(name: string) {
  return (v: string) => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(v);
  };
}
