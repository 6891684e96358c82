import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';
import { parseSize } from '../../units.js';
import { checkNodeAddress } from '../../validate.js';
import { pushTo } from '../../arrays.js';
import { splitHostPort } from '../../host-port.js';

export type NodeStatusCode = 'U' | 'D';
export type NodeStateCode = 'N' | 'L' | 'J' | 'M';

export interface StatusNode {
  datacenter: string;
  /** Two letters as printed: UN, DN, UJ, UL, UM, DL … and ScyllaDB's "?N" (liveness unknown to the observer). */
  code: string;
  /** false for "D" and for ScyllaDB's "?" (not known to be up: see notes). */
  up: boolean;
  state: 'normal' | 'leaving' | 'joining' | 'moving';
  /** As printed. Only an address without addressProblem may be contacted (see checkNodeAddress). */
  address: string;
  /**
   * Set when the address is no IP address or host name (an anonymised "172.0.XYZ.WZY", or hostile text such
   * as "10.0.0.3?config=/x"): the row still counts for the rules, but nothing may connect to it.
   */
  addressProblem?: string;
  /** A host ID that is no UUID (anonymised in a paste), as printed; hostId is then null. */
  hostIdAsPrinted?: string;
  /** The storage port when the row printed `address:port` (`nodetool -pp status`, 4.0+); address is then the host. */
  storagePort?: number;
  /** null when printed as "?" (down node) or unparseable. Old ScyllaDB (0.x, 2015) printed bare byte counts and
   * sometimes negative ones (a counter bug, scylladb/scylladb#719): kept as printed, with a note. */
  loadBytes: number | null;
  loadText: string;
  tokens: number | null;
  /** Percent 0–100; null for "?" (ownership not computable, e.g. mixed replication). */
  ownsPercent: number | null;
  /** null when the node printed `null` or "?" (not yet known to gossip). */
  hostId: string | null;
  rack: string;
}

export interface NodetoolStatus {
  datacenters: string[];
  nodes: StatusNode[];
  /** "Owns (effective)" when computed for a keyspace's replication; "Owns" when raw token ownership. */
  ownsEffective: boolean | null;
  notes: string[];
  /**
   * Node rows (a "UN "/"DN " line after the header) that could not be read, as printed (first 120 chars):
   * usually the last row of a cut paste. Non-empty means `nodes` is missing at least these nodes.
   */
  rowsNotParsed: string[];
}

const STATE: Record<string, StatusNode['state']> = { N: 'normal', L: 'leaving', J: 'joining', M: 'moving' };

// UN  127.0.0.1  118.52 KiB  16  100.0%  c474c29e-…  rack1    (load may be "?", owns "?", host id "null")
const ROW =
  /^([UD?])([NLJM])\s+(\S+)\s+(\?|-?\d+(?:[.,]\d+)?(?:\s*(?:bytes|[KMGTP]i?B|B))?)\s+(\d+|\?)\s+(\?|-?\d+(?:[.,]\d+)?\s*%)\s+([0-9a-fA-F]{8}-[0-9a-fA-F-]{27}|null|\?|<[^>\s]{1,40}>|\w{1,16}(?:-\w{1,16}){2,5})\s*(.*)$/;
// The same row with its address blanked out of a paste ("UN      141.35 GB  256  ?  ccda8c3f-…  rack1").
const ROW_NO_ADDRESS =
  /^([UD?])([NLJM])()\s+(\?|-?\d+(?:[.,]\d+)?(?:\s*(?:bytes|[KMGTP]i?B|B))?)\s+(\d+|\?)\s+(\?|-?\d+(?:[.,]\d+)?\s*%)\s+([0-9a-fA-F]{8}-[0-9a-fA-F-]{27}|null|\?|<[^>\s]{1,40}>|\w{1,16}(?:-\w{1,16}){2,5})\s*(.*)$/;
const BLANK_ADDRESS = 'the address column is blank (removed from the paste)';
/** A printed host ID that is a UUID; anything else in that column was anonymised by whoever pasted it. */
const HOST_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F-]{27}$/;

/**
 * Rows whose address is not one (anonymised "<ip>", "x.x.x.x"): one warning per distinct address, and when several
 * rows share it, each is renamed by its host ID's first group (or its row number) so findings name one node each.
 */
function maskedAddresses(nodes: StatusNode[]): string[] {
  const byAddress = new Map<string, StatusNode[]>();
  // push, not a copy per row: 100,000 rows of one masked address must stay linear
  for (const n of nodes) if (n.addressProblem && n.addressProblem !== BLANK_ADDRESS) pushTo(byAddress, n.address, n);
  const out: string[] = [];
  for (const [address, rows] of byAddress) {
    if (rows.length > 1) rows.forEach((n, i) => (n.address = `${address} (${n.hostId ? `host ${n.hostId.slice(0, 8)}` : `${i + 1} of ${rows.length}`})`));
    out.push(
      `${rows[0]!.addressProblem}${rows.length > 1 ? ` (${rows.length} rows, told apart by host ID)` : ''}: kept as printed, but nothing connects to ${rows.length > 1 ? 'them' : 'it'}`,
    );
  }
  return out;
}

export const parseStatus = total<NodetoolStatus>('nodetool.status', (text) => {
  const lines = cleanLines(text);
  const nodes: StatusNode[] = [];
  const datacenters: string[] = [];
  const notes: string[] = [];
  const warnings: string[] = [];
  const rowsNotParsed: string[] = [];
  let dc = '';
  let sawHeader = false;
  let ownsEffective: boolean | null = null;
  let blanks = 0;
  for (const raw of lines) {
    const line = raw.trim();
    const dcMatch = /^Datacenter:\s*(.*)$/.exec(line);
    if (dcMatch) {
      dc = dcMatch[1]!.trim();
      datacenters.push(dc);
      continue;
    }
    if (/^--\s+Address\s+Load/.test(line)) {
      sawHeader = true;
      if (/Owns \(effective\)/.test(line)) ownsEffective = true;
      else if (/\bOwns\b/.test(line)) ownsEffective = false;
      continue;
    }
    if (/^Note:/.test(line)) {
      notes.push(line);
      continue;
    }
    const m = ROW.exec(line) ?? ROW_NO_ADDRESS.exec(line);
    if (m) {
      const loadText = m[4]!.trim();
      const hostId = m[7]!;
      // a blanked address gets a name the report can show: its host ID's first group, else its row number
      const blank = m[3] === '';
      const hostPort = blank ? { host: `(no address) ${HOST_ID.test(hostId) ? hostId.slice(0, 8) : `row ${nodes.length + 1}`}` } : splitHostPort(m[3]!);
      nodes.push({
        datacenter: dc,
        code: `${m[1]}${m[2]}`,
        up: m[1] === 'U',
        state: STATE[m[2]!]!,
        address: hostPort.host,
        ...(hostPort.port !== undefined ? { storagePort: hostPort.port } : {}),
        loadBytes: loadText === '?' ? null : parseSize(loadText),
        loadText,
        tokens: m[5] === '?' ? null : Number(m[5]),
        ownsPercent: m[6] === '?' ? null : Number(m[6]!.replace('%', '').replace(',', '.').trim()),
        hostId: HOST_ID.test(hostId) ? hostId.toLowerCase() : null,
        // anonymised ("xxxxxxxx-yyyy-…", "<redacted>"): kept as printed for the report, never used as an identity
        ...(hostId !== 'null' && hostId !== '?' && !HOST_ID.test(hostId) ? { hostIdAsPrinted: hostId } : {}),
        rack: m[8]!.trim(),
      });
      if (blank) {
        nodes[nodes.length - 1]!.addressProblem = BLANK_ADDRESS;
        blanks++;
        continue;
      }
      const address = checkNodeAddress(hostPort.host);
      if (!address.ok) nodes[nodes.length - 1]!.addressProblem = address.reason;
    } else if (sawHeader && /^[UD?][NLJM]\s/.test(line)) {
      rowsNotParsed.push(line.slice(0, 120));
      warnings.push(`unparsed node line: ${line.slice(0, 120)}`);
    }
  }
  if (blanks)
    warnings.push(`${blanks} node row(s) have no address (${BLANK_ADDRESS}): named "(no address)" and their host ID's first group; nothing connects to them`);
  warnings.push(...maskedAddresses(nodes));
  if (!sawHeader && nodes.length)
    warnings.push(
      `${nodes.length} node row(s) without the "Datacenter:" and "-- Address" header: the paste may hold part of the cluster only; counts per DC and rack cover the rows shown`,
    );
  // ScyllaDB oddities seen in real outputs: "?" status (the observer has no liveness for that node, e.g. the node
  // itself while it is being replaced, scylladb/scylladb#13692) and negative loads (counter bug, #719).
  for (const n of nodes) {
    if (n.code.startsWith('?'))
      notes.push(
        `${n.address} is "${n.code}": status unknown to this observer (ScyllaDB prints "?" when it has no liveness for the node); check it from another node`,
      );
    if (n.loadBytes !== null && n.loadBytes < 0)
      notes.push(`${n.address} load is negative (${n.loadText}): a load counter bug (seen in ScyllaDB, scylladb/scylladb#719), not a size`);
  }
  if (!sawHeader && nodes.length === 0) {
    return unrecognized('nodetool.status', 'no "-- Address Load …" header and no node rows');
  }
  if (nodes.length === 0) {
    // A header with no node under it is a cut paste (nodetool always lists at least the local node).
    const cut = rowsNotParsed.length ? `; ${rowsNotParsed.length} node row(s) cut short: ${rowsNotParsed[0]}` : '';
    return unrecognized(
      'nodetool.status',
      `the "-- Address Load …" header is there but no node row follows: the node rows are missing (truncated output)${cut}`,
    );
  }
  return parsedOk<NodetoolStatus>('nodetool.status', { datacenters, nodes, ownsEffective, notes, rowsNotParsed }, warnings);
});
