/**
 * A stress tool's own output may echo its command line (a usage error prints the argv) or its environment:
 * before any of it is stored in status.json / result.json or returned, passwords go. PURE.
 */

/** Values shorter than this are masked only where an option names them (masking "ab" everywhere garbles text). */
const MIN_LITERAL = 4;

/** "-pw X", "-password X", "--password=X", "password=X", "password: X" (the value up to the next space). */
const NAMED = [/(-{1,2}(?:pw|password)\b)(\s+|=)(?:"[^"]*"|'[^']*'|\S+)/gi, /\b(password|passwd|pwd)(\s*[=:]\s*)(?:"[^"]*"|'[^']*'|[^\s,)]+)/gi];

/** text with every known secret value and every option-named password replaced by "***". */
export function scrubStressText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].filter((x) => x.length >= MIN_LITERAL).sort((a, b) => b.length - a.length)) out = out.split(s).join('***');
  for (const re of NAMED) out = out.replace(re, (_m, name: string, sep: string) => `${name}${sep}***`);
  return out;
}

/** The secret values of an environment: every variable whose name says password, secret or token. */
export function secretValuesOf(env: Record<string, string | undefined>): string[] {
  return Object.entries(env)
    .filter(([k, v]) => v !== undefined && v !== '' && /PASSWORD|PASSWD|SECRET|TOKEN/i.test(k))
    .map(([, v]) => v!);
}
