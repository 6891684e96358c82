/** A compact Markdown table; cells have pipes escaped and newlines flattened. */
export function markdownTable(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? '—' : String(v)).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const out = [`| ${headers.map(cell).join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`];
  for (const r of rows) out.push(`| ${r.map(cell).join(' | ')} |`);
  return out.join('\n');
}
