/**
 * The "Current <what> throughput: <value> <unit>" lines of getcompactionthroughput and getstreamthroughput.
 * Wording per version (Cassandra tools/nodetool/GetCompactionThroughput.java, GetStreamThroughput.java):
 *  - compaction: "64 MB/s" (all versions; Cassandra's limiter counts this MB as MiB), 4.1+ "-d": "64.0 MiB/s",
 *    trunk adds "Current compaction throughput (1 minute): x MiB/s" (and 5, 15 minute) measured rates;
 *  - stream: "200 Mb/s" (megabits), 4.1+ "unlimited" when 0, "-m": "24.0 MiB/s", a 4.1 development wording
 *    "200 megabits per second", "-e": "Current entire SSTable stream throughput: …"; DSE also prints
 *    "Current streaming connections per host: N".
 */
import { num } from './nodetool-text.js';

export interface ThroughputSetting {
  /** As printed ("64", "64.0"); null when "unlimited". */
  value: number | null;
  /** As printed: "MB/s", "MiB/s", "Mb/s", "megabits per second"; null when "unlimited". */
  unit: string | null;
  /** True for "unlimited" and for a printed 0 (0 disables the throttle). */
  unlimited: boolean;
  /** The cap in MiB/s when the unit is a byte unit (MB/s is MiB/s here); null for megabits or unlimited. */
  mebibytesPerSecond: number | null;
  /** The cap in megabits/s when printed in Mb/s; null otherwise. */
  megabitsPerSecond: number | null;
}

export interface ThroughputReport {
  /** The main cap (compaction, or stream). */
  cap: ThroughputSetting | null;
  /** Stream only: entire-SSTable streaming cap (-e). */
  entireSstableCap: ThroughputSetting | null;
  /** Trunk compaction only: measured compaction rate over the last 1, 5, 15 minutes, MiB/s. */
  measuredMiBPerSec: { window: string; value: number | null }[];
  /** DSE stream only. */
  streamingConnectionsPerHost: number | null;
}

function setting(valueText: string): ThroughputSetting | null {
  const t = valueText.trim();
  if (/^unlimited$/i.test(t)) return { value: null, unit: null, unlimited: true, mebibytesPerSecond: null, megabitsPerSecond: null };
  const m = /^(-?\d+(?:\.\d+)?)\s*(MiB\/s|MB\/s|Mb\/s|megabits per second|MiB per second|mebibytes per second)$/.exec(t);
  if (!m) return null;
  const value = Number(m[1]);
  const unit = m[2]!;
  const bits = /^(Mb\/s|megabits per second)$/.test(unit);
  const unlimited = value === 0;
  return {
    value,
    unit,
    unlimited,
    mebibytesPerSecond: unlimited || bits ? null : value,
    megabitsPerSecond: unlimited || !bits ? null : value,
  };
}

/** Reads the throughput lines for `what` ("compaction" or "stream"); null when the main line is absent. */
export function readThroughput(lines: readonly string[], what: 'compaction' | 'stream'): { report: ThroughputReport; warnings: string[] } | null {
  const report: ThroughputReport = { cap: null, entireSstableCap: null, measuredMiBPerSec: [], streamingConnectionsPerHost: null };
  const warnings: string[] = [];
  let seen = false;
  for (const raw of lines) {
    const line = raw.trim();
    const main = new RegExp(`^Current ${what} throughput:\\s*(.+)$`, 'i').exec(line);
    if (main) {
      seen = true;
      report.cap = setting(main[1]!);
      if (!report.cap) warnings.push(`throughput value not understood: ${main[1]!.slice(0, 60)}`);
      continue;
    }
    const entire = /^Current entire SSTable stream throughput:\s*(.+)$/i.exec(line);
    if (entire && what === 'stream') {
      seen = true;
      report.entireSstableCap = setting(entire[1]!);
      continue;
    }
    const measured = new RegExp(`^Current ${what} throughput \\((\\d+ minutes?)\\):\\s*(\\S+)`, 'i').exec(line);
    if (measured) {
      report.measuredMiBPerSec.push({ window: measured[1]!, value: num(measured[2]) });
      continue;
    }
    const conns = /^Current streaming connections per host:\s*(\d+)/.exec(line);
    if (conns) report.streamingConnectionsPerHost = Number(conns[1]);
  }
  return seen ? { report, warnings } : null;
}
