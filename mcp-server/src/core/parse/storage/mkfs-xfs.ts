import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';

/**
 * The geometry block printed by `mkfs.xfs`, `mkfs.xfs -N` (dry run) and `xfs_info` (xfsprogs
 * libfrog/fsgeom.c `xfs_report_geom`): five sections, each continued by lines starting with "=".
 *
 *   meta-data=/dev/md0               isize=512    agcount=32, agsize=28989696 blks
 *            =                       sectsz=512   attr=2, projid32bit=1
 *            =                       crc=1        finobt=0, sparse=0[, rmapbt=0]
 *            =                       reflink=1    bigtime=1 inobtcount=1 [nrext64=0]
 *   data     =                       bsize=4096   blocks=927668224, imaxpct=5
 *            =                       sunit=256    swidth=512 blks
 *   naming   =version 2              bsize=4096   ascii-ci=0, ftype=1
 *   log      =internal log           bsize=4096   blocks=452968, version=2
 *            =                       sectsz=512   sunit=8 blks, lazy-count=1
 *   realtime =none                   extsz=4096   blocks=0, rtextents=0
 *
 * xfsprogs 6.x may add keys (nrext64, exchange, metadir, rgcount …) and a realtime continuation line: they land in `raw`.
 * Older xfsprogs omit keys (rmapbt, reflink, bigtime, inobtcount …): those stay null.
 */
export type XfsSection = 'meta-data' | 'data' | 'naming' | 'log' | 'realtime';

export interface XfsGeometry {
  /** "/dev/md0" from "meta-data=/dev/md0"; null when printed without one (some mkfs -N / file images). */
  device: string | null;
  metaData: {
    isize: number | null;
    agcount: number | null;
    agsize: number | null;
    sectsz: number | null;
    attr: number | null;
    projid32bit: number | null;
    crc: number | null;
    finobt: number | null;
    sparse: number | null;
    rmapbt: number | null;
    reflink: number | null;
    bigtime: number | null;
    inobtcount: number | null;
  };
  data: {
    bsize: number | null;
    blocks: number | null;
    imaxpct: number | null;
    /** Stripe unit / width in filesystem blocks ("blks"), as printed. */
    sunit: number | null;
    swidth: number | null;
    /** sunit/swidth × bsize; null when either is unknown. */
    sunitBytes: number | null;
    swidthBytes: number | null;
    sizeBytes: number | null;
  };
  naming: { version: string | null; bsize: number | null; asciiCi: number | null; ftype: number | null };
  log: {
    /** "internal log", "internal", or the external log device. */
    location: string | null;
    internal: boolean | null;
    bsize: number | null;
    blocks: number | null;
    version: number | null;
    sectsz: number | null;
    /** Log stripe unit in blocks ("sunit=8 blks"). */
    sunit: number | null;
    lazyCount: number | null;
  };
  realtime: { location: string | null; extsz: number | null; blocks: number | null; rtextents: number | null };
  /** Every key=value as printed, per section (including keys this type does not name, e.g. nrext64). */
  raw: Record<XfsSection, Record<string, string>>;
}

const SECTION_LINE = /(?:^|\s|:\s*)(meta-data|data|naming|log|realtime)\s*=(.*)$/;
const CONTINUATION = /^(?:.*?:\s+)?=(\s.*)$/;

function num(v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

export const parseMkfsXfs = total<XfsGeometry>('storage.mkfs-xfs', (text) => {
  const raw: XfsGeometry['raw'] = { 'meta-data': {}, data: {}, naming: {}, log: {}, realtime: {} };
  const heads: Partial<Record<XfsSection, string>> = {};
  let section: XfsSection | null = null;
  let seen = 0;
  const warnings: string[] = [];
  for (const line of cleanLines(text)) {
    let rest: string;
    const s = SECTION_LINE.exec(line);
    if (s) {
      section = s[1] as XfsSection;
      seen++;
      rest = s[2]!;
      // The section's own value ("/dev/md0", "version 2", "internal log", "none") runs up to the first key=.
      const head = /^(.*?)(?=\s+[a-z][\w-]*=|\s*$)/.exec(rest);
      const h = head ? head[1]!.trim() : '';
      if (h !== '' && !/=/.test(h)) heads[section] = h;
      rest = rest.slice(head ? head[0].length : 0);
    } else {
      const c = CONTINUATION.exec(line.trim());
      if (!c || section === null) {
        // Continuations must follow their section directly: anything else ends the block.
        if (line.trim() !== '') section = null;
        continue;
      }
      rest = c[1]!;
    }
    // (?<![\w-]): a key starts a word; without it every letter of a long word starts a new scan (quadratic).
    for (const m of rest.matchAll(/(?<![\w-])([a-z][\w-]*)=([^\s,]+)/g)) raw[section][m[1]!] = m[2]!;
  }
  if (seen === 0 || Object.keys(raw['meta-data']).length + Object.keys(raw.data).length === 0) {
    return unrecognized('storage.mkfs-xfs', 'no mkfs.xfs/xfs_info geometry (meta-data=/data= sections) found');
  }
  for (const sec of ['meta-data', 'data', 'naming', 'log', 'realtime'] as const) {
    if (Object.keys(raw[sec]).length === 0 && heads[sec] === undefined) warnings.push(`section ${sec} missing (truncated output?)`);
  }
  const md = raw['meta-data'];
  const d = raw.data;
  const bsize = num(d.bsize);
  const sunit = num(d.sunit);
  const swidth = num(d.swidth);
  const blocks = num(d.blocks);
  const logLoc = heads.log ?? null;
  return parsedOk(
    'storage.mkfs-xfs',
    {
      device: heads['meta-data'] ?? null,
      metaData: {
        isize: num(md.isize),
        agcount: num(md.agcount),
        agsize: num(md.agsize),
        sectsz: num(md.sectsz),
        attr: num(md.attr),
        projid32bit: num(md.projid32bit),
        crc: num(md.crc),
        finobt: num(md.finobt),
        sparse: num(md.sparse),
        rmapbt: num(md.rmapbt),
        reflink: num(md.reflink),
        bigtime: num(md.bigtime),
        inobtcount: num(md.inobtcount),
      },
      data: {
        bsize,
        blocks,
        imaxpct: num(d.imaxpct),
        sunit,
        swidth,
        sunitBytes: sunit !== null && bsize !== null ? sunit * bsize : null,
        swidthBytes: swidth !== null && bsize !== null ? swidth * bsize : null,
        sizeBytes: blocks !== null && bsize !== null ? blocks * bsize : null,
      },
      naming: {
        version: heads.naming?.replace(/^version\s+/, '') ?? null,
        bsize: num(raw.naming.bsize),
        asciiCi: num(raw.naming['ascii-ci']),
        ftype: num(raw.naming.ftype),
      },
      log: {
        location: logLoc,
        internal: logLoc === null ? null : /^internal\b/.test(logLoc),
        bsize: num(raw.log.bsize),
        blocks: num(raw.log.blocks),
        version: num(raw.log.version),
        sectsz: num(raw.log.sectsz),
        sunit: num(raw.log.sunit),
        lazyCount: num(raw.log['lazy-count']),
      },
      realtime: {
        location: heads.realtime ?? null,
        extsz: num(raw.realtime.extsz),
        blocks: num(raw.realtime.blocks),
        rtextents: num(raw.realtime.rtextents),
      },
      raw,
    },
    warnings,
  );
});
