import { parse as parseYaml } from 'yaml';
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';

/**
 * ScyllaDB's disk model, in two shapes:
 * - /etc/scylla.d/io_properties.yaml (written by scylla_io_setup / iotune --properties-file):
 *     disks:
 *       - mountpoint: /var/lib/scylla
 *         read_iops: 1108217
 *         read_bandwidth: 8138108928      # bytes/s
 *         write_iops: 733072
 *         write_bandwidth: 4151361536
 * - iotune's console output: "Measuring sequential write bandwidth: 4008 MB/s", "… random read IOPS: 1108217 IOPS"
 *   (seastar apps/iotune: MB is 10^6 bytes).
 */
export interface IoDisk {
  mountpoint: string | null;
  readIops: number | null;
  readBandwidth: number | null;
  writeIops: number | null;
  writeBandwidth: number | null;
}

export interface IoProperties {
  format: 'yaml' | 'iotune';
  disks: IoDisk[];
}

const KIND = 'storage.io-properties';
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : null);

export const parseIoProperties = total<IoProperties>(KIND, (text) => {
  if (/Measuring (sequential|random)/.test(text)) {
    const d: IoDisk = { mountpoint: null, readIops: null, readBandwidth: null, writeIops: null, writeBandwidth: null };
    for (const line of cleanLines(text)) {
      const m = /Measuring (sequential|random) (read|write) (bandwidth|IOPS):\s*([\d.]+)\s*(MB\/s|IOPS)/.exec(line);
      if (!m) {
        const mp = /(?:Starting Evaluation|evaluation)[^\n]*?(\/\S+)/i.exec(line);
        if (mp && d.mountpoint === null) d.mountpoint = mp[1]!;
        continue;
      }
      const v = Number(m[4]) * (m[5] === 'MB/s' ? 1e6 : 1);
      if (m[3] === 'IOPS') d[m[2] === 'read' ? 'readIops' : 'writeIops'] = v;
      else d[m[2] === 'read' ? 'readBandwidth' : 'writeBandwidth'] = v;
    }
    if ([d.readIops, d.readBandwidth, d.writeIops, d.writeBandwidth].every((x) => x === null)) return unrecognized(KIND, 'iotune output without measurements');
    return parsedOk(KIND, { format: 'iotune', disks: [d] });
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    return unrecognized(KIND, `io_properties.yaml is not valid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  const disks = (doc as { disks?: unknown } | null)?.disks;
  if (!Array.isArray(disks) || disks.length === 0) return unrecognized(KIND, 'no "disks:" list (io_properties.yaml) and no iotune "Measuring …" lines');
  const out: IoDisk[] = [];
  for (const x of disks) {
    if (x === null || typeof x !== 'object') continue;
    const o = x as Record<string, unknown>;
    out.push({ mountpoint: typeof o.mountpoint === 'string' ? o.mountpoint : null, readIops: num(o.read_iops), readBandwidth: num(o.read_bandwidth), writeIops: num(o.write_iops), writeBandwidth: num(o.write_bandwidth) });
  }
  if (out.length === 0) return unrecognized(KIND, 'disks: list has no entries');
  return parsedOk(KIND, { format: 'yaml', disks: out });
});
