/**
 * `nodetool listpendinghints` (Cassandra 4.1+): the hints this node holds, one row per target node — host ID,
 * address, rack, DC, the target's state as this node's failure detector sees it, the number of hint files and the
 * newest and oldest hint (UTC, "yyyy-MM-dd HH:mm:ss,SSS"; ListPendingHints.java). With none: "This node does not
 * have any pending hints". Anonymised host IDs and addresses are kept as given. PURE and total.
 */
import { total, unrecognized, type Parsed } from '../../parsed.js';
import { splitLines } from '../../text.js';

export const LIST_PENDING_HINTS_KIND = 'nodetool.listpendinghints';

export interface PendingHintsRow {
  hostId: string;
  /** As nodetool prints it (with its storage port from 4.1: "127.0.0.2:7000"). */
  address: string;
  rack: string;
  dc: string;
  /** UP, DOWN or Unknown. */
  status: string;
  files: number;
  /** ISO 8601 UTC. */
  newest: string;
  oldest: string;
  line: number;
}

export interface PendingHints {
  /** true: "This node does not have any pending hints". */
  none: boolean;
  rows: PendingHintsRow[];
}

const NONE = /This node does not have any pending hints/;
const HEADER = /^[ \t]*Host ID[ \t]+Address[ \t]+Rack[ \t]+DC[ \t]+Status[ \t]+Total files[ \t]+Newest[ \t]+Oldest[ \t]*$/;
const TIME = String.raw`(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:[,.](\d{1,9}))?`;
// Rack and DC names are one word each (snitch names have no blanks); the two times carry one blank each.
const ROW = new RegExp(String.raw`^[ \t]*(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\d{1,12})[ \t]+${TIME}[ \t]+${TIME}[ \t]*$`);

const iso = (day: string, time: string, frac: string | undefined) => `${day}T${time}.${(frac ?? '0').padEnd(3, '0').slice(0, 3)}Z`;

function parse(text: string): Parsed<PendingHints> {
  if (NONE.test(text)) return { kind: LIST_PENDING_HINTS_KIND, ok: true, value: { none: true, rows: [] }, warnings: [] };
  const lines = splitLines(text);
  const header = lines.findIndex((l) => HEADER.test(l));
  const rows: PendingHintsRow[] = [];
  const warnings: string[] = [];
  for (let i = header < 0 ? 0 : header + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === '') continue;
    const m = ROW.exec(l);
    if (!m) {
      if (header >= 0) warnings.push(`line ${i + 1} is not a hint row: ${l.trim().slice(0, 120)}`);
      continue;
    }
    rows.push({
      hostId: m[1]!,
      address: m[2]!,
      rack: m[3]!,
      dc: m[4]!,
      status: m[5]!,
      files: Number(m[6]),
      newest: iso(m[7]!, m[8]!, m[9]),
      oldest: iso(m[10]!, m[11]!, m[12]),
      line: i + 1,
    });
  }
  if (header < 0 && rows.length === 0)
    return unrecognized(LIST_PENDING_HINTS_KIND, 'no "Host ID  Address  Rack  DC  Status  Total files  Newest  Oldest" header or hint row');
  if (header < 0) warnings.push('the header line is missing: rows read by their shape');
  return { kind: LIST_PENDING_HINTS_KIND, ok: true, value: { none: false, rows }, warnings };
}

export const parseListPendingHints = total(LIST_PENDING_HINTS_KIND, parse);

/** The header, the "none" sentence, or a row ending in two hint times (a table pasted without its header). */
export const listPendingHintsSignature = new RegExp(
  String.raw`^[ \t]*Host ID[ \t]+Address[ \t]+Rack[ \t]+DC[ \t]+Status[ \t]+Total files\b|This node does not have any pending hints|` +
    String.raw`^[ \t]*\S+[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+(?:UP|DOWN|Unknown)[ \t]+\d{1,12}[ \t]+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}[ \t]+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}[ \t]*$`,
  'm',
);
