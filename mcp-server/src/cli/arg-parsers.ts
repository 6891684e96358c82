/** Parsers for numeric command-line option values, shared by the verbs. */
import { InvalidArgumentError } from 'commander';

/** A whole number (digits only); commander reports anything else as an invalid argument (exit 2). */
export function intArg(name: string) {
  return (v: string) => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(v);
  };
}

/** Any finite number (fractions and negatives allowed); commander reports anything else as an invalid argument. */
export function numberArg(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new InvalidArgumentError(`${JSON.stringify(v)} is not a number`);
  return n;
}

/** A number above zero; anything else is a BAD_ARGUMENT error with the fix spelled out. */
export function positiveNumberArg(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw Object.assign(new Error(`--${name} ${JSON.stringify(v)} is not a positive number`), { code: 'BAD_ARGUMENT', fix: `Write it as --${name} 64.` });
    return n;
  };
}
