/** Text clean-up shared by every parser: pasted output arrives with CRLF, ANSI colours, log prefixes and indentation. */

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

// A leading log/timestamp prefix as pasted from journald, kubectl logs or a shell transcript:
// "2024-05-01T10:00:00.000Z ", "May 01 10:00:00 host nodetool[123]: ", "$ " prompts are handled by callers.
const TIMESTAMP_PREFIX =
  /^(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s+|[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2} \S+ [^:]{1,64}: )/;

// Prefixes a log collector puts on every line of a container's output. Stripped only when every non-empty line
// carries one, so output whose own lines merely look alike (a "/sys/block/…" listing) is left alone.
//  - `kubectl logs --prefix`: "[pod/cass-0/cassandra] "
//  - `docker compose logs` / podman-compose: "cassandra-1  | " (names padded to one width)
//  - a Cassandra log4j/logback line header: "INFO  [main] 2024-05-01 10:00:00,123 " (+ "StorageService.java:12 - ")
//  - pdsh/clush: "node1: " — the same host on every line, and at least 3 lines, so that a one-line
//    "ReleaseVersion: 5.0.9" keeps its label.
//  - scylla-cluster-tests (SCT) logs quoted in ScyllaDB issues: "< t:2025-01-20 20:03:29,733 f:base.py  l:231
//    c:RemoteLibSSH2CmdRunner p:DEBUG > " plus the remote "<10.0.0.1>: " or "RemoteCmdRunner [centos@1.2.3.4]: ".
// (A prefix on the first line only is ONE_MESSAGE_PREFIX below.)
type PrefixRule = { shape: RegExp; sameWidth?: boolean; identical?: boolean; minLines?: number };
const COLLECTOR_PREFIXES: PrefixRule[] = [
  { shape: /^\[[\w.-]+\/[^\]\s]+\](?: |$)/ },
  { shape: /^[A-Za-z0-9][\w.-]*\s*\|(?: |$)/, sameWidth: true },
  { shape: /^(?:TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\s+\[[^\]]*\]\s+\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:\s+\S+\.(?:java|scala):\d+ -)?(?: |$)/ },
  { shape: /^[A-Za-z0-9][\w.-]*:(?: |$)/, identical: true, minLines: 3 },
  { shape: /^< t:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ f:\S+\s+l:\d+\s+c:\S+\s+p:[A-Z]+\s+>(?: <[^>\s]+>:| \S+ \[[^\]\s]+\]:)?(?: |$)/ },
];

/** Removes a collector prefix present on every non-empty line (see COLLECTOR_PREFIXES); other text unchanged. */
export function stripCollectorPrefix(lines: string[]): string[] {
  const filled = lines.filter((l) => l.trim() !== '');
  if (filled.length === 0) return lines;
  for (const { shape, sameWidth, identical, minLines = 1 } of COLLECTOR_PREFIXES) {
    if (filled.length < minLines) continue;
    const seen = new Set<string>();
    if (
      !filled.every((l) => {
        const m = shape.exec(l);
        if (m) seen.add(m[0].trimEnd());
        return m !== null;
      })
    )
      continue;
    if (identical && seen.size > 1) continue;
    if (sameWidth && new Set([...seen].map((p) => p.length)).size > 1) continue;
    return lines.map((l) => l.replace(shape, ''));
  }
  return lines;
}

// A test harness that logs a whole output as one message prefixes only its first line
// ("dtest: DEBUG: pending tasks: 0", scylladb/scylla-tools-java#30).
const ONE_MESSAGE_PREFIX = /^[\w.-]+:\s+(?:DEBUG|INFO|WARNING|WARN|ERROR):\s+/;

/** Drops a logger prefix that only the first non-empty line carries (see ONE_MESSAGE_PREFIX). */
function stripOneMessagePrefix(lines: string[]): string[] {
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0 || !ONE_MESSAGE_PREFIX.test(lines[first]!) || lines.some((l, i) => i !== first && ONE_MESSAGE_PREFIX.test(l))) return lines;
  return lines.map((l, i) => (i === first ? l.replace(ONE_MESSAGE_PREFIX, '') : l));
}

/**
 * Longest line a parser sees, in characters. No real output comes near it (the corpus's longest line is under
 * 16 KiB); past it a line is hostile or binary, and cutting it bounds the cost of every per-line regex.
 */
export const MAX_LINE_CHARS = 64 * 1024;

/**
 * The text with every line longer than `max` characters cut to its first `max` (line ends: \n, \r\n or \r, kept
 * as they were), and how many lines were cut. The text itself comes back when nothing is cut.
 */
export function capLineLength(text: string, max = MAX_LINE_CHARS): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  const parts: string[] = [];
  let cut = 0;
  let start = 0; // start of the current line
  let kept = 0; // text[kept, start) is already in parts
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    if (c !== 10 && c !== 13) continue;
    if (i - start > max) {
      parts.push(text.slice(kept, start + max));
      kept = i;
      cut++;
    }
    start = i + 1;
  }
  if (cut === 0) return { text, cut: 0 };
  parts.push(text.slice(kept));
  return { text: parts.join(''), cut };
}

export function splitLines(text: string): string[] {
  return capLineLength(text).text.replace(ANSI, '').replace(/\r\n?/g, '\n').split('\n');
}

/** Lines with collector and timestamp prefixes removed and the common indentation stripped; blank edges trimmed. */
export function cleanLines(text: string): string[] {
  // trimEnd, not /\s+$/: that regex retries from every space of a run, quadratic on a long run of blanks.
  let lines = stripOneMessagePrefix(stripCollectorPrefix(splitLines(text))).map((l) => l.replace(TIMESTAMP_PREFIX, '').trimEnd());
  let first = 0;
  let end = lines.length;
  while (first < end && lines[first]!.trim() === '') first++;
  while (end > first && lines[end - 1]!.trim() === '') end--;
  if (first > 0 || end < lines.length) lines = lines.slice(first, end);
  // A loop, not Math.min(...indents): spreading 200k lines as arguments overflows the stack.
  let common = Infinity;
  for (const l of lines) if (l.trim() !== '') common = Math.min(common, /^[ \t]*/.exec(l)![0].length);
  if (common > 0 && common !== Infinity) lines = lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)![0].length)));
  return lines;
}
