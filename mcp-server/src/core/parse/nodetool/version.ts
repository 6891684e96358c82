import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';

export interface NodetoolVersion {
  /** As printed, e.g. "5.0.9", "4.1.10", "2024.1.3-0.20240610.b3d6a7e0e3a4". */
  release: string;
  major: number;
  minor: number;
  patch: number | null;
  /**
   * ScyllaDB's nodetool prints Scylla's own version (year-based enterprise releases or a build suffix);
   * older Scylla printed the Cassandra compatibility version 3.0.8, which cannot be told apart here.
   */
  product: 'cassandra' | 'scylla' | 'dse' | 'unknown';
  /**
   * DataStax Enterprise prints its own version on a line before ReleaseVersion ("DSE version: 6.7.7"); its
   * ReleaseVersion is then DSE's internal Cassandra build ("4.0.0.677"), not an Apache Cassandra 4.0 release.
   */
  dse: string | null;
}

export const parseVersion = total<NodetoolVersion>('nodetool.version', (text) => {
  const lines = cleanLines(text);
  const line = lines.find((l) => /^\s*ReleaseVersion\s*:/.test(l));
  const dseLine = lines.find((l) => /^\s*DSE version\s*:\s*\d/.test(l));
  const dse = dseLine ? dseLine.replace(/^\s*DSE version\s*:\s*/, '').trim() : null;
  if (!line) return unrecognized('nodetool.version', 'no "ReleaseVersion:" line');
  const release = line.replace(/^\s*ReleaseVersion\s*:\s*/, '').trim();
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(release);
  if (!m) return unrecognized('nodetool.version', `release "${release.slice(0, 60)}" is not a version number`);
  const major = Number(m[1]);
  const minor = Number(m[2]);
  const patch = m[3] === undefined ? null : Number(m[3]);
  let product: NodetoolVersion['product'] = 'cassandra';
  const warnings: string[] = [];
  if (dse !== null) product = 'dse';
  else if (major >= 2017 || /-0\.\d{8}\./.test(release)) product = 'scylla';
  else if (release === '3.0.8') {
    product = 'unknown';
    warnings.push('3.0.8 is also what older ScyllaDB reports for Cassandra compatibility; check `scylla --version`');
  }
  return parsedOk<NodetoolVersion>('nodetool.version', { release, major, minor, patch, product, dse }, warnings);
});
