/**
 * Escaping for the report formats. Every value that came from a cluster, a bundle or a log is untrusted: a table
 * named `<script>` must reach the reader as those characters, never as markup, in HTML and in Markdown alike
 * (Markdown viewers pass raw HTML through, and `[x](javascript:…)` is a link).
 */

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML[c]!);
}

/**
 * Inline Markdown text: the characters that start markup (HTML tags, entities, links, emphasis, code, table cells)
 * are backslash-escaped (CommonMark renders them literally), and line breaks become spaces so a value cannot
 * start a heading or a list item. An underscore inside a word (incident_ks) is left alone: it is never emphasis.
 */
export function escapeMarkdown(s: string): string {
  return s
    .replace(/\r\n?|\n/g, ' ')
    .replace(/[\\`*[\]<>&|!#~]/g, (c) => `\\${c}`)
    .replace(/_/g, (c, i: number, all: string) => (/[A-Za-z0-9]/.test(all[i - 1] ?? '') && /[A-Za-z0-9]/.test(all[i + 1] ?? '') ? c : `\\${c}`));
}
