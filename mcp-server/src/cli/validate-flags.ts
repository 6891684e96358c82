/**
 * The CLI's side of "one input schema per operation": a verb builds the operation's input object from its flags
 * and checks it with the schema the MCP tool registers (or one derived from it). A refusal names the flag the
 * user typed (`--timeout-ms`, not `timeoutMs`), the value, what is wrong and the fix, as a BAD_ARGUMENT (exit 2).
 */
import type { z } from 'zod';
import { OpError } from '../core/errors.js';

/** Input key → how the user wrote it, where that is not the key in kebab case (`dirs` → `--dir`, `devices` → `<devices>`). */
export type FlagNames = Readonly<Record<string, string>>;

const kebab = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * The flag behind an issue's path: a name given for the dotted path (`lastBootstrap.minutes`), else for its first key
 * (a nested `population.size` is still `--population`), else the first key in kebab case.
 */
export function flagFor(path: readonly PropertyKey[], names: FlagNames = {}): string {
  const keys = path.filter((p): p is string => typeof p === 'string');
  if (keys.length === 0) return 'the options';
  return names[keys.join('.')] ?? names[keys[0]!] ?? kebab(keys[0]!);
}

/**
 * A numeric flag as the schema should see it: a number when the text is one, otherwise the text itself, so that
 * `--timeout-ms abc` is refused by the schema with the value shown (Number('abc') would be NaN, '' would be 0).
 */
export function cliNumber(v: string | number | undefined): string | number | undefined {
  if (v === undefined || typeof v === 'number') return v;
  const t = v.trim();
  return /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i.test(t) ? Number(t) : v;
}

/** A comma-separated flag as a list (empty items dropped); undefined stays undefined. */
export function cliList(v: string | undefined): string[] | undefined {
  return v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = input;
  for (const p of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[p];
  }
  return at;
}

type Issue = z.core.$ZodIssue;

/** What to do about one issue, in the terms of the flag. */
function fixFor(issue: Issue, flag: string, verb: string): string {
  const help = `\`cql-tuner ${verb} --help\` lists the options and their values.`;
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'array' || issue.origin === 'string'
        ? `Give ${flag} at least ${String(issue.minimum)} ${issue.origin === 'array' ? 'value(s)' : 'character(s)'}. ${help}`
        : `Give ${flag} a value ${issue.inclusive === false ? 'above' : 'of at least'} ${String(issue.minimum)}. ${help}`;
    case 'too_big':
      return issue.origin === 'array' || issue.origin === 'string'
        ? `Give ${flag} at most ${String(issue.maximum)} ${issue.origin === 'array' ? 'value(s)' : 'character(s)'}. ${help}`
        : `Give ${flag} a value ${issue.inclusive === false ? 'below' : 'of at most'} ${String(issue.maximum)}. ${help}`;
    case 'invalid_type':
      return issue.expected === 'number' || issue.expected === 'int' ? `Write ${flag} as a number, in digits. ${help}` : `Check ${flag}. ${help}`;
    case 'invalid_value':
      return `Use one of: ${issue.values.map(String).join(', ')}.`;
    case 'unrecognized_keys':
      return help;
    default:
      return `Correct ${flag}. ${help}`;
  }
}

/**
 * Checks a verb's input against its schema: the parsed value (defaults applied) or an OpError BAD_ARGUMENT naming
 * the flag, which failWith() turns into exit code 2 before anything ran.
 */
export function parseFlags<S extends z.ZodType>(verb: string, schema: S, input: unknown, names: FlagNames = {}): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const flag = issue.code === 'unrecognized_keys' ? flagFor(issue.keys, names) : flagFor(issue.path, names);
  const value = valueAt(input, issue.path);
  // The value as typed, shortened: a 10 kB argument should not fill the terminal.
  const text = typeof value === 'string' && value.length > 60 ? `${value.slice(0, 60)}…` : value;
  const shown = typeof text === 'string' || typeof text === 'number' ? ` ${JSON.stringify(text)}` : '';
  return failBadFlag(`${flag}${shown}: ${issue.message}`, fixFor(issue, flag, verb));
}

function failBadFlag(message: string, fix: string): never {
  throw new OpError('BAD_ARGUMENT', message, fix);
}
