/**
 * nodetool netstats (Cassandra tools/nodetool/NetStats.java; ScyllaDB scylla-nodetool.cc netstats_operation).
 * "Mode: X", streaming plans ("Repair <uuid>", peer lines, "Receiving N files, B bytes total. Already received
 * n files (p%), b bytes total (p%)" — 3.x and ScyllaDB omit the percentages; -H prints sizes with units),
 * "Read Repair Statistics:" and the internode message pool table (Large/Small/Gossip messages on 3.x+;
 * Commands/Responses on 2.x). A node in STARTING mode prints neither of the last two.
 * ScyllaDB's pool table is synthetic: Dropped is always 0 and Gossip messages always 0/0.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { parseSize } from '../../units.js';
import { indentOf, limitWarnings, nodetoolError, nodetoolLines, num } from './nodetool-text.js';

export interface StreamProgress {
  totalFiles: number;
  totalBytes: number | null;
  doneFiles: number;
  doneBytes: number | null;
}

export interface StreamSession {
  peer: string;
  /** The private address used when it differs from the peer. */
  connecting: string | null;
  receiving: StreamProgress | null;
  sending: StreamProgress | null;
  /** Per-file progress lines printed under the session. */
  fileLines: number;
}

export interface StreamPlan {
  operation: string;
  planId: string;
  sessions: StreamSession[];
}

export interface MessagePool {
  name: string;
  active: number | null;
  pending: number | null;
  completed: number | null;
  dropped: number | null;
}

export interface NodetoolNetstats {
  mode: string;
  streams: StreamPlan[];
  readRepair: { attempted: number | null; mismatchBlocking: number | null; mismatchBackground: number | null } | null;
  pools: MessagePool[];
}

// `.*\S` (greedy, ends on a non-blank), not `.+?`: a lazy group rescans the blanks after every character.
const UUID = /^(.*\S)\s+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const PROGRESS = /^(Receiving|Sending) (\d+) files, (.+?) total\. Already (?:received|sent) (\d+) files(?: \([\d.,]+%\))?, (.+?) total/;

function size(text: string): number | null {
  // /bytes$/ then trim, not /\s*bytes$/: that retries from every blank of a run (quadratic).
  const t = text.replace(/bytes$/, '').trim();
  return /^\d+$/.test(t) ? Number(t) : parseSize(text.trim());
}

export const parseNetstats = total<NodetoolNetstats>('nodetool.netstats', (text) => {
  const kind = 'nodetool.netstats';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);

  let mode: string | null = null;
  const streams: StreamPlan[] = [];
  const pools: MessagePool[] = [];
  const warnings: string[] = [];
  let readRepair: NodetoolNetstats['readRepair'] = null;
  let poolColumns = 0;
  let plan: StreamPlan | null = null;
  let session: StreamSession | null = null;

  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const mm = /^Mode:\s*(\S+)/.exec(line);
    if (mm) {
      mode = mm[1]!;
      continue;
    }
    if (mode === null) continue;
    if (/^Not sending any streams\.?$/.test(line)) continue;
    if (/^Read Repair Statistics:$/.test(line)) {
      readRepair = { attempted: null, mismatchBlocking: null, mismatchBackground: null };
      plan = null;
      continue;
    }
    const rr = /^(Attempted|Mismatch \(Blocking\)|Mismatch \(Background\)):\s*(\d+)$/.exec(line);
    if (rr && readRepair) {
      const key = rr[1] === 'Attempted' ? 'attempted' : rr[1]!.includes('Blocking') ? 'mismatchBlocking' : 'mismatchBackground';
      readRepair[key] = Number(rr[2]);
      continue;
    }
    if (/^Pool Name\s+Active\s+Pending\s+Completed/.test(line)) {
      poolColumns = ['Active', 'Pending', 'Completed', 'Dropped'].filter((w) => new RegExp(`\\b${w}\\b`).test(line)).length;
      plan = null;
      continue;
    }
    if (poolColumns > 0) {
      const t = line.split(/\s+/);
      const vals = t.slice(t.length - poolColumns);
      if (t.length <= poolColumns) {
        warnings.push(`pool row not understood: ${line.slice(0, 100)}`);
        continue;
      }
      pools.push({
        name: t.slice(0, t.length - poolColumns).join(' '),
        active: num(vals[0]),
        pending: num(vals[1]),
        completed: num(vals[2]),
        dropped: poolColumns >= 4 ? num(vals[3]) : null,
      });
      continue;
    }
    const pm = UUID.exec(line);
    if (pm && indentOf(raw) === 0) {
      plan = { operation: pm[1]!, planId: pm[2]!.toLowerCase(), sessions: [] };
      streams.push(plan);
      session = null;
      continue;
    }
    if (!plan) continue;
    const pr = PROGRESS.exec(line);
    if (pr && session) {
      const p: StreamProgress = { totalFiles: Number(pr[2]), totalBytes: size(pr[3]!), doneFiles: Number(pr[4]), doneBytes: size(pr[5]!) };
      if (pr[1] === 'Receiving') session.receiving = p;
      else session.sending = p;
    } else if (session && indentOf(raw) >= 8) session.fileLines++;
    else {
      const peer = /^(\S+)(?:\s+\(using (\S+)\))?$/.exec(line);
      if (!peer) continue;
      session = { peer: peer[1]!, connecting: peer[2] ?? null, receiving: null, sending: null, fileLines: 0 };
      plan.sessions.push(session);
    }
  }

  if (mode === null) return unrecognized(kind, 'no "Mode:" line');
  if (!/^STARTING$/i.test(mode)) {
    if (!readRepair) warnings.push('no "Read Repair Statistics" section: the output looks truncated');
    if (poolColumns === 0) warnings.push('no message pool table: the output looks truncated');
    else if (pools.length === 0) warnings.push('message pool table has no rows: the output looks truncated');
  }
  return parsedOk<NodetoolNetstats>(kind, { mode, streams, readRepair, pools }, limitWarnings(warnings));
});
