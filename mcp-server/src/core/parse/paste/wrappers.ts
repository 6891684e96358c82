/**
 * Per-line wrappers that copying output into an issue, a chat or a test log adds in front of (or around) every
 * line. Each one says how long the wrapper is at the start of a line (-1: the line does not carry it). All patterns
 * are anchored and bounded, so one test is linear in the line's length.
 */

export type WrapperName =
  | 'crlf'
  | 'code-fence'
  | 'md-quote'
  | 'backticks'
  | 'indent'
  | 'sct-prefix'
  | 'harness-prefix'
  | 'syslog'
  | 'journald'
  | 'kubectl-prefix'
  | 'kibana'
  | 'grep-prefix'
  | 'line-gutter'
  | 'diff-added'
  | 'md-bold';

export interface LineWrapper {
  name: Exclude<WrapperName, 'crlf' | 'code-fence' | 'indent'>;
  /** Length of the wrapper at the start of the line, or -1. */
  prefix: (line: string) => number;
  /** Length of a closing part at the end of the line (backticks), 0 when none. */
  suffix?: (line: string) => number;
  /** A number read from the wrapper (grep -n / gutter line numbers) that must not go down from line to line. */
  sequence?: (line: string) => number;
  /** Consecutive carriers must number n, n+1, n+2… (a `cat -n` gutter), not merely grow. */
  consecutive?: boolean;
}

const lengthOf =
  (re: RegExp) =>
  (line: string): number => {
    const m = re.exec(line);
    return m === null ? -1 : m[0].length;
  };

/**
 * scylla-cluster-tests (SCT) harness lines: `< t:2023-01-02 10:00:00,123 f:base.py l:228 c:sdcm.remote p:DEBUG > `
 * (its LOGGING format in sdcm/utils/log.py, "< t:%(asctime)s f:%(filename)-15s l:%(lineno)-4s c:%(name)-20s
 * p:%(levelname)-5s > %(message)s"), also pasted without the leading `< t:`. A remote command's output is logged
 * with its host in front (`<10.4.11.228>: `), which belongs to the wrapper too.
 */
const SCT = /^(?:< t:)?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} f:\S{1,100} +l:\d{1,6} +c:\S{1,100} +p:[A-Z]{1,10} *> ?(?:<[\w.:[\]-]{1,255}>: ?)?/;

/**
 * Avocado test-framework lines (older scylla test runs): `2016-07-12 01:59:07,880 remote  L0192 DEBUG| ` and, for
 * a remote command's output, `[host] [stdout] ` after it.
 */
const HARNESS = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \S{1,40} +L\d{1,5} +[A-Z]{1,10} *\| ?(?:\[[^\]\s]{1,80}\] \[std(?:out|err)\] ?)?/;

/** BSD syslog / `journalctl -o short[-precise]`: `Mar  3 10:00:01[.123456] host prog[123]: ` (pid optional). */
const SYSLOG = /^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d{1,9})? \S{1,255} [^\s:[\]]{1,100}(?:\[\d{1,10}\])?: ?/;

/**
 * `journalctl -o short-iso[-precise]`, and the same with SCT's level marker (`… host !WARNING | scylla: `):
 * `2024-05-01T10:00:00+0000 host prog[123]: `.
 */
const JOURNALD = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d) +\S{1,255} +(?:![A-Z]{1,10} *\| *)?[^\s:[\]]{1,100}(?:\[\d{1,10}\])?: ?/;

/** `kubectl logs --prefix`: `[pod/name/container] `. */
const KUBECTL = /^\[pod\/[^\s\]/]{1,253}\/[^\s\]]{1,253}\] /;

/**
 * Kibana Discover rows copied as text: the @timestamp column in its default formats, old (`December 29th 2023,
 * 21:44:10.791`) and new (`Dec 29, 2023 @ 21:44:10.791`), glued to or tab-separated from the message.
 */
const KIBANA = /^(?:[A-Z][a-z]{2,8} \d{1,2}(?:st|nd|rd|th) \d{4}, \d\d:\d\d:\d\d\.\d{3}|[A-Z][a-z]{2} \d{1,2}, \d{4} @ \d\d:\d\d:\d\d\.\d{3})[\t ]*/;

/**
 * `grep -H` / `grep -Hn` (`system.log:`, `/var/log/scylla.log.1:123:`, context lines `file-123-`). The file must
 * end like a log or text file (or be syslog/messages), so `STATUS:15:NORMAL` in gossipinfo or `10.0.0.1:7000` is
 * never taken for one.
 */
const GREP_FILE = /^[\w./~-]{0,200}(?:\.(?:log|txt|out|err|yaml|yml|json|conf)(?:\.\d{1,4})?|\/(?:syslog|messages))(?::\d{1,9}:|-\d{1,9}-|:)(?=\S)/;
/** `grep -n` alone: `123:` (`123-` for context lines), not a time of day (`23:35:22`). */
const GREP_N = /^(\d{1,9})[:-](?!\d)/;
/** Line-number gutters (`cat -n`, editors, viewers): `     1\t`, `12 | `, `12│`. */
const GUTTER = /^ {0,8}(\d{1,9})(?:\t| ?[|│] ?)/;

/** A unified diff's added line (output pasted into a README or docs change): `+`, not the `+++ b/file` header. */
const DIFF_ADDED = /^\+(?!\+\+ )/;

/** A markdown blockquote level: `> ` (one level per pass, so `> > ` takes two). */
const QUOTE = /^ {0,3}> ?/;

export const LINE_WRAPPERS: LineWrapper[] = [
  { name: 'md-quote', prefix: lengthOf(QUOTE) },
  { name: 'sct-prefix', prefix: lengthOf(SCT) },
  { name: 'harness-prefix', prefix: lengthOf(HARNESS) },
  { name: 'kubectl-prefix', prefix: lengthOf(KUBECTL) },
  { name: 'kibana', prefix: lengthOf(KIBANA) },
  { name: 'syslog', prefix: lengthOf(SYSLOG) },
  { name: 'journald', prefix: lengthOf(JOURNALD) },
  {
    name: 'line-gutter',
    prefix: lengthOf(GUTTER),
    sequence: (l) => Number(GUTTER.exec(l)?.[1] ?? NaN),
    consecutive: true,
  },
  { name: 'grep-prefix', prefix: (l) => Math.max(lengthOf(GREP_FILE)(l), lengthOf(GREP_N)(l)), sequence: grepLineNumber },
  { name: 'backticks', prefix: backtickOpen, suffix: backtickClose },
  { name: 'diff-added', prefix: lengthOf(DIFF_ADDED) },
  { name: 'md-bold', prefix: boldOpen, suffix: boldClose },
];

/** The line number in `file:123:` / `123:`, or NaN when the grep prefix has none (then any order is fine). */
function grepLineNumber(line: string): number {
  const n = GREP_N.exec(line);
  if (n !== null) return Number(n[1]);
  const f = GREP_FILE.exec(line);
  const num = f === null ? null : /[:-](\d{1,9})[:-]$/.exec(f[0]);
  return num ? Number(num[1]) : NaN;
}

/** A one-liner in inline code: `` `…` `` or ```` ```…``` ````; the same run of backticks must close it. */
function backtickOpen(line: string): number {
  const m = /^ {0,3}(`{1,3})(?=[^`\s])/.exec(line);
  if (m === null) return -1;
  const run = m[1]!;
  const end = line.trimEnd();
  if (end.length < m[0].length + 1 + run.length || !end.endsWith(run)) return -1;
  // `a` and `b` is two spans of code in a sentence, not one wrapped line.
  if (end.slice(m[0].length, end.length - run.length).includes('`')) return -1;
  return m[0].length;
}

function backtickClose(line: string): number {
  const m = /^ {0,3}(`{1,3})/.exec(line);
  return m === null ? 0 : line.length - line.trimEnd().length + m[1]!.length;
}

/** A line set in markdown bold to make it stand out: `**ERROR 07:36:42 …**`, with no other `**` inside. */
function boldOpen(line: string): number {
  const m = /^ {0,3}\*\*(?=[^*\s])/.exec(line);
  if (m === null) return -1;
  const end = line.trimEnd();
  if (end.length < m[0].length + 3 || !end.endsWith('**')) return -1;
  if (end.slice(m[0].length, end.length - 2).includes('**')) return -1;
  return m[0].length;
}

function boldClose(line: string): number {
  return line.length - line.trimEnd().length + 2;
}

/** A code fence line (```` ``` ````, ```` ```text ````, `~~~`): never content. */
export const FENCE = /^ {0,3}(?:`{3,}|~{3,})[\w+.-]{0,40}[ \t]*$/;
