/**
 * Cells of cluster tables as they arrive: JSON (the collector writes collections as JSON and timestamps as ISO) or
 * as cqlsh prints them ({'a', 'b'}, {'k': 'v'}, "2024-05-01 10:00:00.000000+0000"). PURE, total.
 */

/** A set/list cell: JSON (["a","b"]) as the collector writes it, or cqlsh's {'a', 'b'} / ['a', 'b']. */
export function collectionCell(v: string | null | undefined): string[] {
  if (v === null || v === undefined || v === '' || v === 'null' || v === 'None') return [];
  try {
    const p: unknown = JSON.parse(v);
    if (Array.isArray(p)) return p.map(String);
  } catch {
    // cqlsh literal below
  }
  const t = v.trim();
  if (!/^[{[]/.test(t) || !/[}\]]$/.test(t)) return [v];
  return literalTokens(t.slice(1, -1)).map((x) => x.text);
}

/**
 * The items of a cqlsh collection literal body ('a', 'it''s', 3, 'k': 'v'), each with the separator after it.
 * One pass over the text: no regex backtracking on a hostile cell.
 */
function literalTokens(body: string): { text: string; sep: string }[] {
  const out: { text: string; sep: string }[] = [];
  let i = 0;
  while (i < body.length) {
    while (i < body.length && /\s/.test(body[i]!)) i++;
    if (i >= body.length) break;
    let text = '';
    if (body[i] === "'") {
      i++;
      while (i < body.length) {
        if (body[i] === "'" && body[i + 1] === "'") {
          text += "'";
          i += 2;
        } else if (body[i] === "'") {
          i++;
          break;
        } else text += body[i++];
      }
    } else {
      const start = i;
      while (i < body.length && body[i] !== ',' && body[i] !== ':') i++;
      text = body.slice(start, i).trim();
    }
    while (i < body.length && /\s/.test(body[i]!)) i++;
    const sep = i < body.length && (body[i] === ',' || body[i] === ':') ? body[i++]! : '';
    out.push({ text, sep });
  }
  return out;
}

/** A map<text,text> cell: JSON object, or cqlsh's {'k': 'v', …}. */
export function mapCell(v: string | null | undefined): Record<string, string> {
  if (!v || v === 'null' || v === 'None') return {};
  try {
    const p: unknown = JSON.parse(v);
    if (p && typeof p === 'object' && !Array.isArray(p))
      return Object.fromEntries(Object.entries(p as Record<string, unknown>).map(([k, x]) => [k, String(x)]));
  } catch {
    // cqlsh literal below
  }
  const out: Record<string, string> = {};
  const t = v.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return out;
  const tokens = literalTokens(t.slice(1, -1));
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i]!.sep !== ':') continue;
    out[tokens[i]!.text] = tokens[i + 1]!.text;
    i++;
  }
  return out;
}

/** Epoch ms of a timestamp cell: ISO (collector) or cqlsh's "2024-05-01 10:00:00.000000+0000"; null otherwise. */
export function timestampMs(v: string | null | undefined): number | null {
  if (!v || v === 'null' || v === 'None') return null;
  const cq = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(\.\d+)?([+-]\d\d:?\d\d|Z)?$/.exec(v.trim());
  if (!cq) return null;
  const frac = cq[3] ? cq[3].slice(0, 4) : '';
  const zone = !cq[4] || cq[4] === 'Z' ? 'Z' : `${cq[4].slice(0, 3)}:${cq[4].slice(-2)}`;
  const ms = Date.parse(`${cq[1]}T${cq[2]}${frac}${zone}`);
  return Number.isFinite(ms) ? ms : null;
}
