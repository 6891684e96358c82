/** Text clean-up shared by every parser: pasted output arrives with CRLF, ANSI colours, log prefixes and indentation. */

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

// A leading log/timestamp prefix as pasted from journald, kubectl logs or a shell transcript:
// "2024-05-01T10:00:00.000Z ", "May 01 10:00:00 host nodetool[123]: ", "$ " prompts are handled by callers.
const TIMESTAMP_PREFIX = /^(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s+|[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2} \S+ [^:]{1,64}: )/;

export function splitLines(text: string): string[] {
  return text.replace(ANSI, '').replace(/\r\n?/g, '\n').split('\n');
}

/** Lines with timestamp prefixes removed and the common indentation stripped; blank edges trimmed. */
export function cleanLines(text: string): string[] {
  let lines = splitLines(text).map((l) => l.replace(TIMESTAMP_PREFIX, '').replace(/\s+$/, ''));
  while (lines.length && lines[0]!.trim() === '') lines.shift();
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = indents.length ? Math.min(...indents) : 0;
  if (common > 0) lines = lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)![0].length)));
  return lines;
}
