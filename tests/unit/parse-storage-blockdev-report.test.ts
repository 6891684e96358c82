import { describe, expect, it } from 'vitest';
import { parseBlockdevReport, storageSignature } from '../../mcp-server/src/core/parse/storage/index.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseBlockdevReport(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

const SAMPLE = 'disk/blockdev_report_readahead_8192_montecristo.txt';

describe('blockdev --report', () => {
  it.skipIf(!HAVE_CORPUS)('reads RA=8192 sectors (4 MiB) on sda* and dm-*, 256 on the CD-ROM', () => {
    const text = corpus(SAMPLE);
    const r = parseBlockdevReport(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    const rows = r.value.rows;
    expect(rows.map((x) => x.device)).toEqual(['/dev/sda', '/dev/sda1', '/dev/sda2', '/dev/sda3', '/dev/sr0', '/dev/dm-0', '/dev/dm-1']);
    for (const row of rows.filter((x) => /sda|dm-/.test(x.device))) {
      expect(row.readAheadSectors).toBe(8192);
      expect(row.readAheadKiB).toBe(4096); // 4 MiB
      expect(row.sectorSize).toBe(512);
      expect(row.readOnly).toBe(false);
    }
    expect(rows[0]).toEqual({
      readOnly: false,
      readAheadSectors: 8192,
      readAheadKiB: 4096,
      sectorSize: 512,
      blockSize: 4096,
      startSector: 0,
      sizeBytes: 343597383680,
      device: '/dev/sda',
    });
    expect(rows[2]!.startSector).toBe(2099200);
    expect(rows.find((x) => x.device === '/dev/sr0')).toMatchObject({ readAheadSectors: 256, readAheadKiB: 128, sectorSize: 2048 });
    expect(storageSignature['storage.blockdev-report'].test(text)).toBe(true);
    expectTotalOnEveryTruncation(text);
  });

  it('handles ro devices, "-" start sectors, sudo errors and prompts', () => {
    const text = `# blockdev --report
RO    RA   SSZ   BSZ   StartSec            Size   Device
ro   128  4096  4096          -     21474836480   /dev/nvme1n1
blockdev: cannot open /dev/fd0: No such device or address
`;
    const r = parseBlockdevReport(text);
    expect(r).toMatchObject({ ok: true, value: { rows: [{ readOnly: true, readAheadSectors: 128, readAheadKiB: 64, startSector: null, sectorSize: 4096 }] } });
    if (r.ok) expect(r.warnings.join(' ')).toMatch(/cannot open/);
  });

  it('says why on empty, header-only and unrelated text', () => {
    for (const bad of [
      '',
      'RO    RA   SSZ   BSZ   StartSec            Size   Device',
      'Filesystem 1K-blocks Used Available Use% Mounted on\n/dev/sda1 100 50 50 50% /',
    ]) {
      const r = parseBlockdevReport(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.reason).not.toMatch(/^parser error/);
    }
  });
});
