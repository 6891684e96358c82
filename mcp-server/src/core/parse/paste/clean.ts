/**
 * Paste hygiene: strips what copying an output into an issue, a chat or a test log wraps around every line
 * (markdown quotes and fences, inline backticks, a common indentation, test-harness / syslog / journald / kubectl /
 * Kibana / grep prefixes, line-number gutters, CRLF), so that detection sees the output itself. Pure and total.
 *
 * Rules that keep it from eating content:
 * - a wrapper is stripped only when most non-empty lines carry it (prompt lines, which are separators, do not
 *   count), and only from the lines that carry it; line numbers read from a wrapper must not go down;
 * - lines are never dropped, except code-fence lines; every kept line is a substring of its original line, and
 *   `lineMap` says which original line (1-based) each cleaned line came from, so evidence can cite the paste;
 * - it repeats until nothing more applies (`> > ` takes two passes), so clean(clean(x)) == clean(x).
 */
import { promptOf, usesHashComments } from './prompts.js';
import { FENCE, LINE_WRAPPERS, type LineWrapper, type WrapperName } from './wrappers.js';

export type { WrapperName } from './wrappers.js';

export interface CleanStage {
  /** Wrappers stripped so far, in the order they were. */
  applied: WrapperName[];
  text: string;
  /** lineMap[i] is the original 1-based line number of cleaned line i. */
  lineMap: number[];
}

export interface Cleaned extends CleanStage {
  /** The text after each wrapper was stripped, outermost first: detection tries them in turn. */
  stages: CleanStage[];
}

/** The decision which wrappers apply looks at this many non-empty lines: a huge text is not scanned whole for it. */
const DECIDE_LINES = 5000;
/** Nesting deeper than this is not a paste. */
const MAX_PASSES = 32;

interface Lines {
  s: string[];
  n: number[];
}

export function cleanPaste(text: string): Cleaned {
  const raw = typeof text === 'string' ? text.split('\n') : [];
  let cur: Lines = { s: raw, n: raw.map((_, i) => i + 1) };
  const applied: WrapperName[] = [];
  const stages: CleanStage[] = [];
  const push = (name: WrapperName, next: Lines) => {
    cur = next;
    applied.push(name);
    stages.push({ applied: [...applied], text: cur.s.join('\n'), lineMap: cur.n });
  };

  if (raw.some((l) => l.endsWith('\r'))) push('crlf', { s: raw.map((l) => l.replace(/\r+$/, '')), n: cur.n });

  for (let pass = 0; pass < MAX_PASSES; pass++) {
    // Judged again each pass: a quote can hide the `#` comments of a YAML file.
    const hashIsComment = usesHashComments(cur.s.slice(0, DECIDE_LINES));
    const next = stripFences(cur) ?? stripIndent(cur, hashIsComment);
    if (next !== null) {
      push(next.name, next.lines);
      continue;
    }
    const w = LINE_WRAPPERS.find((x) => carriedByMost(cur.s, x, hashIsComment));
    if (w === undefined) break;
    push(w.name, stripWrapper(cur, w));
  }
  return { applied, text: stages.length ? stages[stages.length - 1]!.text : text, lineMap: cur.n, stages };
}

/** Lines that count for "most lines": non-empty and not a prompt line (a command echo is a separator). */
function counted(lines: readonly string[], hashIsComment: boolean): string[] {
  const out: string[] = [];
  for (const l of lines) {
    if (out.length >= DECIDE_LINES) break;
    if (l.trim() === '' || promptOf(l, hashIsComment) !== null) continue;
    out.push(l);
  }
  return out;
}

function carriedByMost(lines: readonly string[], w: LineWrapper, hashIsComment: boolean): boolean {
  const sample = counted(lines, hashIsComment);
  let carriers = 0;
  let last = -Infinity;
  for (const l of sample) {
    const p = w.prefix(l);
    if (p < 0) continue;
    // A wrapper that is the whole line is no wrapper (a lone `>` is a quote's empty line, though).
    if (p >= l.length && w.name !== 'md-quote') continue;
    if (w.sequence) {
      const n = w.sequence(l);
      if (!Number.isNaN(n)) {
        if (n < last || (w.consecutive && last !== -Infinity && n !== last + 1)) return false;
        last = n;
      }
    }
    carriers++;
  }
  return carriers > 0 && carriers * 2 > sample.length;
}

function stripWrapper(cur: Lines, w: LineWrapper): Lines {
  const s = cur.s.map((l) => {
    const p = w.prefix(l);
    if (p < 0 || (p >= l.length && w.name !== 'md-quote')) return l;
    const end = w.suffix ? l.length - w.suffix(l) : l.length;
    return l.slice(p, Math.max(p, end));
  });
  return { s, n: cur.n };
}

/** Code-fence lines are markup, not output: drop them (the only lines ever dropped). */
function stripFences(cur: Lines): { name: WrapperName; lines: Lines } | null {
  if (!cur.s.some((l) => FENCE.test(l))) return null;
  const s: string[] = [];
  const n: number[] = [];
  cur.s.forEach((l, i) => {
    if (FENCE.test(l)) return;
    s.push(l);
    n.push(cur.n[i]!);
  });
  return { name: 'code-fence', lines: { s, n } };
}

/** The indentation every counted line shares (markdown code blocks, list items, e-mail quoting). */
function stripIndent(cur: Lines, hashIsComment: boolean): { name: WrapperName; lines: Lines } | null {
  let common: string | null = null;
  for (const l of counted(cur.s, hashIsComment)) {
    const ws = /^[ \t]*/.exec(l)![0];
    if (common === null) common = ws;
    else {
      let k = 0;
      while (k < common.length && k < ws.length && common[k] === ws[k]) k++;
      common = common.slice(0, k);
    }
    if (common === '') return null;
  }
  if (common === null || common === '') return null;
  const c = common;
  return { name: 'indent', lines: { s: cur.s.map((l) => (l.startsWith(c) ? l.slice(c.length) : l.trimStart() === '' ? '' : l)), n: cur.n } };
}
