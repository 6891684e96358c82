/**
 * nodetool ring (Cassandra tools/nodetool/Ring.java; ScyllaDB scylla-nodetool.cc ring_operation): per
 * datacenter "Address Rack Status State Load Owns Token" with one row per token (vnodes repeat the node), a
 * line with only the DC's last token above the rows, and trailing Warning/Note lines. Owns is "?" when
 * effective ownership cannot be computed; Status "?" when gossip knows neither up nor down.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { parseSize } from '../../units.js';
import { checkNodeAddress } from '../../validate.js';
import { limitWarnings, nodetoolError, nodetoolLines } from './nodetool-text.js';

export type RingStatus = 'up' | 'down' | 'unknown';
export type RingState = 'normal' | 'leaving' | 'joining' | 'moving';

export interface RingEntry {
  datacenter: string;
  address: string;
  rack: string;
  status: RingStatus;
  state: RingState;
  loadBytes: number | null;
  ownsPercent: number | null;
  /** As printed: signed 64-bit for Murmur3, big integers or hex for older partitioners. */
  token: string;
}

export interface RingNode {
  datacenter: string;
  address: string;
  rack: string;
  status: RingStatus;
  state: RingState;
  loadBytes: number | null;
  ownsPercent: number | null;
  tokens: number;
  /** Set when the address is no IP address or host name (anonymised in a paste): kept as printed, never contacted. */
  addressProblem?: string;
}

export interface NodetoolRing {
  datacenters: string[];
  entries: RingEntry[];
  /** One per address, in first-seen order. */
  nodes: RingNode[];
  /** Some node owns more than one token. */
  vnodes: boolean;
  /** "Warning: …", "Note: …" lines as printed. */
  notes: string[];
}

// Linear on hostile lines: the rack is words joined by single spaces (not `.+?`, which rescans every blank run),
// and the optional unit takes its own blanks (`\s*(?:unit)?\s+` splits one run of blanks in n² ways). Ring.java
// pads the rack to 12 characters: a longer one runs into the status ("aws-us-east-1aUp"), so no blank is required there.
const ROW =
  /^(\S+)\s+(\S+(?: \S+)*?)\s*(Up|Down|\?)\s+(Normal|Leaving|Joining|Moving)\s+(\?|-?\d+(?:[.,]\d+)?(?:\s*(?:bytes|[KMGTPE]i?B|B))?)\s+(\?|\d+(?:[.,]\d+)?%)\s+(\S+)$/;
/** 1.2+: "Address Rack Status State Load Owns Token"; 1.0/1.1 add a DC column and 1.1 says Effective-Ownership. */
const HEADER = /^Address\s+(DC\s+)?Rack\s+Status\s+State\s+Load\s+(?:Owns|Effective-Ownership)\s+Token$/;
const STATUS: Record<string, RingStatus> = { Up: 'up', Down: 'down', '?': 'unknown' };

export const parseRing = total<NodetoolRing>('nodetool.ring', (text) => {
  const kind = 'nodetool.ring';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);

  const datacenters: string[] = [];
  const entries: RingEntry[] = [];
  const notes: string[] = [];
  const warnings: string[] = [];
  let dc = '';
  let sawHeader = false;
  let dcColumn = false;
  let rowsInDc = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || /^=+$/.test(line)) continue;
    const d = /^Datacenter:\s*(.*)$/.exec(line);
    if (d) {
      if (sawHeader && dc && rowsInDc === 0) warnings.push(`datacenter ${dc} has no rows`);
      dc = d[1]!.trim();
      datacenters.push(dc);
      rowsInDc = 0;
      continue;
    }
    const head = HEADER.exec(line);
    if (head) {
      sawHeader = true;
      dcColumn = head[1] !== undefined;
      continue;
    }
    if (/^(Warning|Note|Error):/.test(line) || /^To view status related info/.test(line)) {
      notes.push(line);
      continue;
    }
    if (!sawHeader || /^\S+$/.test(line)) continue; // the lone last-token line above the rows
    // 1.0/1.1 print each row's datacenter in its own column; a paste may bold a whole column value in markdown
    // (**50.00%**), never to be confused with a masked address (10.***.***.***)
    let row = line.includes('**') ? line.replace(/(^|\s)\*\*([^\s*]+)\*\*(?=\s|$)/g, '$1$2') : line;
    let rowDc = dc;
    if (dcColumn) {
      const c = /^(\S+)\s+(\S+)\s+(.*)$/.exec(row);
      if (c) {
        rowDc = c[2]!;
        row = `${c[1]!} ${c[3]!}`;
        if (!datacenters.includes(rowDc)) datacenters.push(rowDc);
      }
    }
    const m = ROW.exec(row);
    if (!m) {
      warnings.push(`ring row not understood: ${line.slice(0, 120)}`);
      continue;
    }
    const owns = m[6] === '?' ? null : Number(m[6]!.replace('%', '').replace(',', '.'));
    entries.push({
      datacenter: rowDc,
      address: m[1]!,
      rack: m[2]!.trim(),
      status: STATUS[m[3]!]!,
      state: m[4]!.toLowerCase() as RingState,
      loadBytes: m[5] === '?' ? null : parseSize(m[5]!),
      ownsPercent: owns,
      token: m[7]!,
    });
    rowsInDc++;
  }
  if (!sawHeader) return unrecognized(kind, 'no "Address  [DC]  Rack  Status  State  Load  Owns  Token" header');
  if (entries.length === 0) warnings.push('ring header without rows: the output looks truncated');

  // One node per address; an anonymised address ("10.***.***.***" on every row) tells no node from another, but
  // each row repeats its node's rack, load and ownership, which do.
  const byAddress = new Map<string, RingNode>();
  const problems = new Map<string, string | undefined>();
  const problemOf = (address: string) => {
    if (!problems.has(address)) {
      const c = checkNodeAddress(address);
      problems.set(address, c.ok ? undefined : c.reason);
    }
    return problems.get(address);
  };
  const keys: string[] = [];
  for (const e of entries) {
    const problem = problemOf(e.address);
    const key = problem === undefined ? e.address : `${e.address}\u0000${e.datacenter}\u0000${e.rack}\u0000${e.loadBytes}\u0000${e.ownsPercent}`;
    keys.push(key);
    const n = byAddress.get(key);
    if (n) n.tokens++;
    else {
      byAddress.set(key, {
        datacenter: e.datacenter,
        address: e.address,
        rack: e.rack,
        status: e.status,
        state: e.state,
        loadBytes: e.loadBytes,
        ownsPercent: e.ownsPercent,
        tokens: 1,
        ...(problem !== undefined ? { addressProblem: problem } : {}),
      });
    }
  }
  const nodes = [...byAddress.values()];
  // Several nodes behind one anonymised address: numbered, on the nodes and on their token rows alike, so nothing
  // downstream that goes by address folds them into one node.
  const shared = new Map<string, number>();
  for (const n of nodes) shared.set(n.address, (shared.get(n.address) ?? 0) + 1);
  if ([...shared.values()].some((c) => c > 1)) {
    const seen = new Map<string, number>();
    const renamed = new Map<string, string>();
    for (const [key, n] of byAddress) {
      const count = shared.get(n.address)!;
      if (count < 2) continue;
      const i = (seen.get(n.address) ?? 0) + 1;
      seen.set(n.address, i);
      renamed.set(key, `${n.address} (${i} of ${count})`);
      n.address = renamed.get(key)!;
    }
    for (let i = 0; i < entries.length; i++) {
      const name = renamed.get(keys[i]!);
      if (name !== undefined) entries[i] = { ...entries[i]!, address: name };
    }
  }
  const masked = [...problems.values()].filter((p) => p !== undefined);
  if (masked.length) {
    warnings.push(
      `${masked[0]}${masked.length > 1 ? ` (and ${masked.length - 1} more)` : ''}: rows kept as printed; nodes told apart by rack, load and ownership, and never contacted`,
    );
  }
  return parsedOk<NodetoolRing>(kind, { datacenters, entries, nodes, vnodes: nodes.some((n) => n.tokens > 1), notes }, limitWarnings(warnings));
});
