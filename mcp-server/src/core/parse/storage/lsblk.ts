import { type Parsed, parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines, splitLines } from '../../text.js';
import { parseSize } from '../../units.js';

/**
 * `lsblk` in two shapes (util-linux misc-utils/lsblk.c, man lsblk(8)):
 *
 * - `lsblk --json [-o …]`: `{"blockdevices": [{"name": "nvme0n1", "rota": false, "ra": 128, …,
 *   "children": [{…}]}]}`. Keys are the lower-cased column names ("log-sec", "min-io", "mountpoints").
 *   util-linux < 2.33 prints every value as a string ("rota": "0", "ra": "128"); newer prints numbers and
 *   booleans; `mountpoints` (2.37+) is an array, `mountpoint` a string or null.
 * - `lsblk -P` (NAME="sda" RA="128" …, one device per line, no tree: parent from PKNAME when present);
 * - the plain table with a header (any column subset, any order), tree glyphs (├─ └─ │ or ASCII `|-` `` `- ``)
 *   before child names, and empty cells where a value is absent (FSTYPE, MOUNTPOINT …). Cells are assigned to
 *   the header column they overlap, which handles both left-aligned text and right-aligned numbers.
 */
export interface LsblkDevice {
  /** Name without tree glyphs. */
  name: string;
  kname: string | null;
  type: string | null;
  /** Bytes: from `-b` numbers or "40G"-style sizes (powers of 1024, as lsblk prints). */
  sizeBytes: number | null;
  sizeText: string | null;
  rotational: boolean | null;
  /** RA column: read-ahead in KiB (lsblk prints read_ahead_kb). */
  readAheadKiB: number | null;
  logicalSectorSize: number | null;
  physicalSectorSize: number | null;
  minIo: number | null;
  optIo: number | null;
  scheduler: string | null;
  fstype: string | null;
  /** Empty when not mounted. */
  mountpoints: string[];
  model: string | null;
  /** Parent device name (tree position); null for top-level devices. */
  parent: string | null;
  depth: number;
  /** Every column as printed (lower-case key, "" for empty cells). */
  columns: Record<string, string>;
}

export interface Lsblk {
  /** pairs = `lsblk -P`. */
  format: 'json' | 'table' | 'pairs';
  /** Column names seen (lower-case, as in JSON keys). */
  columnNames: string[];
  /** Depth-first order as lsblk prints. A device under several parents (RAID member children) appears once per parent. */
  devices: LsblkDevice[];
}

const KIND = 'storage.lsblk';

function intOrNull(v: string | undefined): number | null {
  if (v === undefined || v.trim() === '') return null;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : null;
}

function boolOrNull(v: string | undefined): boolean | null {
  const t = (v ?? '').trim().toLowerCase();
  if (t === '1' || t === 'true') return true;
  if (t === '0' || t === 'false') return false;
  return null;
}

function sizeOf(v: string | undefined): number | null {
  if (v === undefined || v.trim() === '') return null;
  return parseSize(v.trim());
}

function stringify(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v))
    return v
      .filter((x) => x !== null && x !== undefined)
      .map(String)
      .join(',');
  return JSON.stringify(v);
}

function device(columns: Record<string, string>, name: string, parent: string | null, depth: number, mounts: string[]): LsblkDevice {
  const c = (k: string): string | undefined => (columns[k] === undefined || columns[k] === '' ? undefined : columns[k]);
  return {
    name,
    kname: c('kname') ?? null,
    type: c('type') ?? null,
    sizeBytes: sizeOf(c('size')),
    sizeText: c('size') ?? null,
    rotational: boolOrNull(c('rota')),
    readAheadKiB: intOrNull(c('ra')),
    logicalSectorSize: intOrNull(c('log-sec')),
    physicalSectorSize: intOrNull(c('phy-sec')),
    minIo: intOrNull(c('min-io')),
    optIo: intOrNull(c('opt-io')),
    scheduler: c('sched') ?? null,
    fstype: c('fstype') ?? null,
    mountpoints: mounts,
    model: c('model')?.trim() ?? null,
    parent,
    depth,
    columns,
  };
}

function parseJson(text: string): Parsed<Lsblk> | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(text.slice(start, text.lastIndexOf('}') + 1));
  } catch {
    return /"blockdevices"/.test(text) ? unrecognized(KIND, 'lsblk --json output is not valid JSON (truncated?)') : null;
  }
  const list = (doc as { blockdevices?: unknown } | null)?.blockdevices;
  if (!Array.isArray(list)) return null;
  const devices: LsblkDevice[] = [];
  const names = new Set<string>();
  const warnings: string[] = [];
  const walk = (nodes: unknown[], parent: string | null, depth: number) => {
    for (const n of nodes) {
      if (n === null || typeof n !== 'object' || Array.isArray(n)) {
        warnings.push('skipped a non-object entry in blockdevices');
        continue;
      }
      const o = n as Record<string, unknown>;
      const columns: Record<string, string> = {};
      for (const [k, v] of Object.entries(o)) {
        if (k === 'children') continue;
        names.add(k);
        columns[k] = stringify(v);
      }
      const mounts: string[] = [];
      if (Array.isArray(o.mountpoints)) for (const m of o.mountpoints) if (typeof m === 'string' && m !== '') mounts.push(m);
      if (typeof o.mountpoint === 'string' && o.mountpoint !== '' && !mounts.includes(o.mountpoint)) mounts.push(o.mountpoint);
      const name = columns.name || columns.kname || columns.path || '';
      if (name === '') warnings.push('device without name/kname/path');
      devices.push(device(columns, name, parent, depth, mounts));
      if (Array.isArray(o.children)) walk(o.children, name, depth + 1);
    }
  };
  walk(list, null, 0);
  if (devices.length === 0) return unrecognized(KIND, 'lsblk --json lists no block devices');
  return parsedOk(KIND, { format: 'json', columnNames: [...names], devices }, warnings);
}

const KNOWN_COLUMNS = new Set([
  'name',
  'kname',
  'path',
  'maj:min',
  'fsavail',
  'fssize',
  'fstype',
  'fsused',
  'fsuse%',
  'fsroots',
  'fsver',
  'mountpoint',
  'mountpoints',
  'label',
  'uuid',
  'ptuuid',
  'pttype',
  'parttype',
  'parttypename',
  'partlabel',
  'partuuid',
  'partflags',
  'ra',
  'ro',
  'rm',
  'hotplug',
  'model',
  'serial',
  'size',
  'state',
  'owner',
  'group',
  'mode',
  'alignment',
  'min-io',
  'opt-io',
  'phy-sec',
  'log-sec',
  'rota',
  'sched',
  'rq-size',
  'type',
  'disc-aln',
  'disc-gran',
  'disc-max',
  'disc-zero',
  'wsame',
  'wwn',
  'rand',
  'pkname',
  'hctl',
  'tran',
  'subsystems',
  'rev',
  'vendor',
  'zoned',
  'zone-sz',
  'dax',
  'id-link',
  'id',
  'diskseq',
  'start',
  'maj',
  'min',
  'zone-wgran',
  'zone-app',
  'zone-nr',
  'zone-omax',
  'zone-amax',
  'partn',
]);

// The alternatives are disjoint (" " + blank is only `\s\s`): overlapping ones backtrack exponentially on a run of blanks.
const TREE = /^((?:[│|`]\s|[├└|`][─-]|\s\s)*?)([├└`|][─-])/;

/** Tree depth from the row's leading glyphs ("├─", "│ └─", "  └─", ASCII "|-", "`-"); each level is two columns. */
function treeDepth(line: string): number {
  const m = TREE.exec(line);
  return m ? Math.round(m[0].length / 2) : 0;
}

function parseTable(text: string): Parsed<Lsblk> {
  const lines = cleanLines(text).filter((l) => l.trim() !== '');
  const hi = lines.findIndex((l) => {
    const words = l
      .trim()
      .split(/\s+/)
      .map((w) => w.toLowerCase());
    const known = words.filter((w) => KNOWN_COLUMNS.has(w));
    // Upper-case column names only; columns newer than this list are allowed when most are known.
    return (
      words.length >= 2 &&
      /^[A-Z][A-Z0-9:%-]*(?:\s+[A-Z][A-Z0-9:%-]*)+$/.test(l.trim()) &&
      known.length >= Math.max(2, Math.ceil(words.length / 2)) &&
      (words.includes('name') || words.includes('kname') || words.includes('path'))
    );
  });
  if (hi < 0) return unrecognized(KIND, 'no lsblk JSON ("blockdevices") and no lsblk header line (NAME … columns)');
  const header = lines[hi]!;
  const cols: { key: string; start: number; end: number }[] = [];
  for (const m of header.matchAll(/\S+/g)) cols.push({ key: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  const devices: LsblkDevice[] = [];
  const warnings: string[] = [];
  const stack: string[] = [];
  for (const line of lines.slice(hi + 1)) {
    const cells: string[][] = cols.map(() => []);
    for (const m of line.matchAll(/\S+/g)) {
      const s = m.index;
      const e = s + m[0].length;
      let best = -1;
      let bestScore = -Infinity;
      cols.forEach((c, i) => {
        const overlap = Math.min(e, c.end) - Math.max(s, c.start);
        const score = overlap > 0 ? overlap : overlap - 0.5; // negative = gap distance
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      });
      // A token beyond the last header column (e.g. a long MOUNTPOINT) joins the nearest column.
      cells[best]!.push(m[0]);
    }
    const columns: Record<string, string> = {};
    cols.forEach((c, i) => (columns[c.key] = cells[i]!.join(' ')));
    const nameKey = columns.name !== undefined ? 'name' : columns.kname !== undefined ? 'kname' : 'path';
    const first = cols[0]!.key === nameKey;
    const name = (columns[nameKey] ?? '').replace(/^[│|`├└─\s-]+/, '').trim();
    const depth = first ? treeDepth(line) : 0;
    if (name === '') {
      warnings.push(`row without a device name: ${line.trim().slice(0, 120)}`);
      continue;
    }
    if (columns.name !== undefined) columns.name = name;
    stack.length = depth;
    const parent = depth > 0 ? (stack[depth - 1] ?? null) : null;
    stack[depth] = name;
    const mountCell = columns.mountpoints ?? columns.mountpoint ?? '';
    const mounts = mountCell === '' ? [] : [mountCell];
    devices.push(device(columns, name, parent, depth, mounts));
  }
  if (devices.length === 0) return unrecognized(KIND, 'lsblk header without device rows');
  return parsedOk(KIND, { format: 'table', columnNames: cols.map((c) => c.key), devices }, warnings);
}

function parsePairs(lines: string[]): Parsed<Lsblk> {
  const devices: LsblkDevice[] = [];
  const names: string[] = [];
  const depthOf = new Map<string, number>();
  for (const line of lines) {
    const columns: Record<string, string> = {};
    for (const m of line.matchAll(/([A-Z][A-Z0-9_:%-]*)="((?:[^"\\]|\\.)*)"/g)) {
      const k = m[1]!
        .toLowerCase()
        .replace(/_/g, '-')
        .replace(/^maj-min$/, 'maj:min')
        .replace(/^fsuse-$/, 'fsuse%');
      columns[k] = m[2]!.replace(/\\x([0-9a-fA-F]{2})/g, (_s, h: string) => String.fromCharCode(parseInt(h, 16)));
      if (!names.includes(k)) names.push(k);
    }
    const name = columns.name || columns.kname || columns.path || '';
    if (name === '') continue;
    const mount = columns.mountpoints ?? columns.mountpoint ?? '';
    const parent = columns.pkname || null;
    const depth = parent === null ? 0 : (depthOf.get(parent) ?? 0) + 1;
    depthOf.set(columns.kname || name, depth);
    devices.push(device(columns, name, parent, depth, mount === '' ? [] : [mount]));
  }
  if (devices.length === 0) return unrecognized(KIND, 'lsblk -P pairs without NAME/KNAME/PATH');
  return parsedOk(KIND, { format: 'pairs', columnNames: names, devices });
}

export const parseLsblk = total<Lsblk>(KIND, (text) => {
  const body = splitLines(text).join('\n');
  if (/"blockdevices"\s*:/.test(body)) {
    const r = parseJson(body);
    if (r) return r;
  }
  const pairLines = cleanLines(text).filter((l) => /^\s*(?:NAME|KNAME|PATH)="/.test(l));
  if (pairLines.length > 0) return parsePairs(pairLines);
  return parseTable(text);
});
