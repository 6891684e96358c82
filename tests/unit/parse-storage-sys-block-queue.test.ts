import { describe, expect, it } from 'vitest';
import { parseSysBlockQueue, storageSignature } from '../../mcp-server/src/core/parse/storage/index.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseSysBlockQueue(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

const SAMPLE = 'disk/sys_block_vda_queue_rotational1_dse68_collector.txt';

// Synthetic `grep . /sys/block/*/queue/{rotational,read_ahead_kb,scheduler,…}` on two devices (names and values ours).
const GREP = `$ grep . /sys/block/*/queue/{rotational,read_ahead_kb,scheduler,nr_requests,write_cache,optimal_io_size}
/sys/block/nvme0n1/queue/rotational:0
/sys/block/nvme0n1/queue/read_ahead_kb:8
/sys/block/nvme0n1/queue/scheduler:[none] mq-deadline kyber
/sys/block/nvme0n1/queue/nr_requests:1023
/sys/block/nvme0n1/queue/write_cache:write through
/sys/block/nvme0n1/queue/optimal_io_size:0
/sys/block/sdb/queue/rotational:1
/sys/block/sdb/queue/read_ahead_kb:4096
/sys/block/sdb/queue/scheduler:mq-deadline [bfq] none
/sys/block/sdb/queue/iosched/fifo_batch:16
/sys/block/sdb/queue/write_cache:write back
/sys/block/sdb/queue/optimal_io_size:1048576
`;

describe('/sys/block/*/queue dumps', () => {
  it.skipIf(!HAVE_CORPUS)('reads the DSE collector vda queue dump (rotational 1, RA 128 KiB, none, 512 B, write back)', () => {
    const text = corpus(SAMPLE);
    const r = parseSysBlockQueue(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    expect(r.value.devices).toHaveLength(1);
    const q = r.value.devices[0]!;
    expect(q).toMatchObject({
      device: null,
      rotational: true,
      readAheadKiB: 128,
      scheduler: 'none',
      schedulersAvailable: ['none'],
      logicalBlockSize: 512,
      physicalBlockSize: 512,
      minimumIoSize: 512,
      optimalIoSize: 0,
      nrRequests: 128,
      nomerges: 0,
      maxSectorsKiB: 1280,
      writeCache: 'write back',
      writeBack: true,
      discardGranularity: 0,
    });
    expect(q.raw.zoned).toBe('none');
    expect(storageSignature['storage.sys-block-queue'].test(text)).toBe(true);
    expectTotalOnEveryTruncation(text);
  });

  it('reads grep "path:value" output per device, with the [selected] scheduler and iosched files', () => {
    const r = parseSysBlockQueue(GREP);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.devices.map((d) => d.device)).toEqual(['nvme0n1', 'sdb']);
    expect(r.value.devices[0]).toMatchObject({
      rotational: false,
      readAheadKiB: 8,
      scheduler: 'none',
      schedulersAvailable: ['none', 'mq-deadline', 'kyber'],
      nrRequests: 1023,
      writeBack: false,
    });
    expect(r.value.devices[1]).toMatchObject({ rotational: true, readAheadKiB: 4096, scheduler: 'bfq', writeCache: 'write back', optimalIoSize: 1048576 });
    expect(r.value.devices[1]!.raw['iosched/fifo_batch']).toBe('16');
    expect(storageSignature['storage.sys-block-queue'].test(GREP)).toBe(true);
    expectTotalOnEveryTruncation(GREP);
  });

  it('accepts "file: value" with a space after the colon in path form and /sys/class/block paths', () => {
    const r = parseSysBlockQueue('/sys/class/block/xvdb/queue/rotational: 0\n/sys/class/block/xvdb/queue/scheduler: [mq-deadline] none');
    expect(r).toMatchObject({ ok: true, value: { devices: [{ device: 'xvdb', rotational: false, scheduler: 'mq-deadline' }] } });
  });

  it('says why on empty and unrelated text', () => {
    for (const bad of ['', 'scheduler: the weekly one', 'Name: foo\nStatus: running', 'vm.swappiness = 1']) {
      const r = parseSysBlockQueue(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.reason).not.toMatch(/^parser error/);
    }
  });
});
