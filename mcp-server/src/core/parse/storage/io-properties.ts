import { parse as parseYaml } from 'yaml';
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';
import { MAX_YAML_BODY_CHARS, yamlBodyChars } from '../config/cassandra-yaml.js';

/**
 * ScyllaDB's disk model, in two shapes:
 * - /etc/scylla.d/io_properties.yaml (written by scylla_io_setup / iotune --properties-file):
 *     disks:
 *       - mountpoint: /var/lib/scylla          # or "mountpoints: [a, b]": mounts sharing one I/O queue
 *         read_iops: 1108217
 *         read_bandwidth: 8138108928      # bytes/s
 *         write_iops: 733072
 *         write_bandwidth: 4151361536
 * - iotune's console output: "Measuring sequential write bandwidth: 3822 MB/s", "… random read IOPS: 1108217 IOPS",
 *   optionally followed by " (deviation 7%)" when the spread exceeded --accuracy. seastar apps/iotune/iotune.cc
 *   prints bytes_per_sec / (1024 * 1024) as "MB/s", so MB here is MiB.
 */
export interface IoDisk {
  /** The first (usually only) mount point of the entry. */
  mountpoint: string | null;
  /** Every mount point the entry names ("mountpoint" or the "mountpoints" list). */
  mountpoints: string[];
  readIops: number | null;
  readBandwidth: number | null;
  writeIops: number | null;
  writeBandwidth: number | null;
}

export interface IoDeviation {
  measurement: string;
  percent: number;
}

export interface IoProperties {
  format: 'yaml' | 'iotune';
  disks: IoDisk[];
  /** iotune only: "(deviation N%)" notes, printed when a measurement spread more than --accuracy. */
  deviations?: IoDeviation[];
  /** iotune only: --duration from a pasted command line, seconds; null when not shown. */
  durationS?: number | null;
}

const KIND = 'storage.io-properties';
// seastar doc/io-properties-file.md allows a k/M/G/T suffix. The multiplier is taken as binary here; no rule
// depends on the exact bandwidth, only on the value being present.
const SUFFIX: Record<string, number> = { '': 1, k: 1024, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };
const num = (v: unknown) => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const m = typeof v === 'string' ? /^(\d+(?:\.\d+)?)([kKMGT]?)$/.exec(v.trim()) : null;
  return m ? Number(m[1]) * SUFFIX[m[2]!]! : null;
};
const MIB = 1024 * 1024;

export const parseIoProperties = total<IoProperties>(KIND, (text) => {
  if (/Measuring (sequential|random)/.test(text)) {
    const d: IoDisk = { mountpoint: null, mountpoints: [], readIops: null, readBandwidth: null, writeIops: null, writeBandwidth: null };
    const deviations: IoDeviation[] = [];
    let durationS: number | null = null;
    for (const line of cleanLines(text)) {
      const dur = /--duration[= ](\d+)/.exec(line);
      if (dur) durationS = Number(dur[1]);
      const m = /Measuring (sequential|random) (read|write) (bandwidth|IOPS):\s*([\d.]+)\s*(MB\/s|IOPS)(?:\s*\(deviation (\d+)%\))?/.exec(line);
      if (!m) {
        const mp = /(?:Starting Evaluation|evaluation)[^\n]*?(\/\S+)|iotune - (\/\S+) passed sanity checks/i.exec(line);
        if (mp && d.mountpoint === null) d.mountpoint = (mp[1] ?? mp[2])!;
        continue;
      }
      const v = Number(m[4]) * (m[5] === 'MB/s' ? MIB : 1);
      if (m[3] === 'IOPS') d[m[2] === 'read' ? 'readIops' : 'writeIops'] = v;
      else d[m[2] === 'read' ? 'readBandwidth' : 'writeBandwidth'] = v;
      if (m[6] !== undefined) deviations.push({ measurement: `${m[1]} ${m[2]} ${m[3]}`, percent: Number(m[6]) });
    }
    if ([d.readIops, d.readBandwidth, d.writeIops, d.writeBandwidth].every((x) => x === null)) return unrecognized(KIND, 'iotune output without measurements');
    if (d.mountpoint !== null) d.mountpoints = [d.mountpoint];
    return parsedOk(KIND, { format: 'iotune', disks: [d], deviations, durationS });
  }
  let doc: unknown;
  try {
    if (yamlBodyChars(text) > MAX_YAML_BODY_CHARS) return unrecognized(KIND, 'far too long for an io_properties.yaml (a few lines per disk)');
    // prettyErrors off: it locates every error by rescanning the text, quadratic on a text of many errors.
    doc = parseYaml(text, { logLevel: 'error', prettyErrors: false });
  } catch (e) {
    return unrecognized(KIND, `io_properties.yaml is not valid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  const disks = (doc as { disks?: unknown } | null)?.disks;
  if (!Array.isArray(disks) || disks.length === 0) return unrecognized(KIND, 'no "disks:" list (io_properties.yaml) and no iotune "Measuring …" lines');
  const out: IoDisk[] = [];
  for (const x of disks) {
    if (x === null || typeof x !== 'object') continue;
    const o = x as Record<string, unknown>;
    const many = Array.isArray(o.mountpoints) ? o.mountpoints.filter((m): m is string => typeof m === 'string') : [];
    const mountpoints = typeof o.mountpoint === 'string' ? [o.mountpoint, ...many] : many;
    out.push({
      mountpoint: mountpoints[0] ?? null,
      mountpoints,
      readIops: num(o.read_iops),
      readBandwidth: num(o.read_bandwidth),
      writeIops: num(o.write_iops),
      writeBandwidth: num(o.write_bandwidth),
    });
  }
  if (out.length === 0) return unrecognized(KIND, 'disks: list has no entries');
  return parsedOk(KIND, { format: 'yaml', disks: out });
});
