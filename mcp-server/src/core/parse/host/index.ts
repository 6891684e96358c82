import type { Parsed } from '../../parsed.js';
import { IOSTAT_KIND, parseIostat } from './iostat.js';
import { MPSTAT_KIND, parseMpstat } from './mpstat.js';
import { parseSar, SAR_KIND } from './sar.js';
import { parseTtop, TTOP_KIND } from './ttop.js';
import { parseVmstat, VMSTAT_KIND } from './vmstat.js';
import {
  ETHTOOL_STATS_KIND,
  INTERRUPTS_KIND,
  parseEthtoolStats,
  parseInterrupts,
  parseSeastarAio,
  SCYLLA_SETUP_KIND,
  SEASTAR_AIO_KIND,
} from './scylla-setup.js';
import { parseScyllaSetup } from './scylla-setup-files.js';

export * from './common.js';
export * from './iostat.js';
export * from './mpstat.js';
export * from './sar.js';
export * from './scylla-setup.js';
export * from './scylla-setup-files.js';
export * from './sysstat-table.js';
export * from './ttop.js';
export * from './vmstat.js';

export type HostKind =
  | typeof IOSTAT_KIND
  | typeof VMSTAT_KIND
  | typeof MPSTAT_KIND
  | typeof SAR_KIND
  | typeof TTOP_KIND
  | typeof SCYLLA_SETUP_KIND
  | typeof INTERRUPTS_KIND
  | typeof SEASTAR_AIO_KIND
  | typeof ETHTOOL_STATS_KIND;

/** One total parser per host-tool output kind; mpstat before sar (a pure mpstat table also reads as sar). */
export const HOST_PARSERS: Record<HostKind, (text: string) => Parsed<unknown>> = {
  [IOSTAT_KIND]: parseIostat,
  [VMSTAT_KIND]: parseVmstat,
  [MPSTAT_KIND]: parseMpstat,
  [SAR_KIND]: parseSar,
  [TTOP_KIND]: parseTtop,
  [SCYLLA_SETUP_KIND]: parseScyllaSetup,
  [INTERRUPTS_KIND]: parseInterrupts,
  [SEASTAR_AIO_KIND]: parseSeastarAio,
  [ETHTOOL_STATS_KIND]: parseEthtoolStats,
};

const SAR_ROW_PREFIX = String.raw`(?:\d{1,2}:\d\d:\d\d(?:[ \t]?[AP]M)?|Average:)[ \t]+`;

/** Cheap detection signatures, one per kind (multiline; a hit means "worth parsing", the parser judges). */
export const hostSignature: Record<HostKind, RegExp> = {
  // "avg-cpu:  %user …" or a Device header of any layout ("Device:  rrqm/s", "Device  r/s", "Device  tps").
  [IOSTAT_KIND]: /^[ \t]*avg-cpu:[ \t]+%user\b|^[ \t]*Device:?[ \t]+(?:rrqm\/s|r\/s|tps)[ \t]/m,
  // The column line "r  b  swpd  free  buff  cache  si  so …" (-a: inact active), after an optional time column, or
  // the group line above it ("procs -----memory---- ---swap--") when the column line is cut.
  [VMSTAT_KIND]:
    /^[ \t]*(?:\S+[ \t]+)?r[ \t]+b[ \t]+swpd[ \t]+free[ \t]+(?:buff|inact)[ \t]+\S+[ \t]+si[ \t]+so[ \t]+bi[ \t]+bo\b|^[ \t]*(?:\S+[ \t]+)?procs[ \t]+-+memory-+[ \t]+-+swap-+/m,
  [MPSTAT_KIND]: new RegExp(String.raw`^[ \t]*${SAR_ROW_PREFIX}CPU[ \t]+%usr[ \t]+%nice[ \t]+%sys[ \t]+%iowait[ \t]+%irq[ \t]+%soft\b`, 'm'),
  // sjk ttop: "2020-01-09T16:08:06.535+0000 Process summary" or a thread row "[000015] user=16.29% sys= 7.23% …".
  [TTOP_KIND]: /^[ \t]*\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S*[ \t]+Process summary\b|^[ \t]*\[\d+\][ \t]+user=[ \t]*-?[\d.]+%[ \t]+sys=/m,
  // /etc/scylla.d/*.conf, /etc/default/scylla-server or perftune.yaml lines (cat /etc/scylla.d/*).
  [SCYLLA_SETUP_KIND]: /^[ \t]*(?:CPUSET|SEASTAR_IO|DEV_MODE|MEM_CONF|SET_NIC_AND_DISKS)=|^(?:cpu_mask|irq_cpu_mask):[ \t]*['"]?0x[0-9a-fA-F]/m,
  // The "CPU0 CPU1 …" header, or a row ending in an NVMe or NIC queue name ("46:  10176431  0 … PCI-MSI-edge  nvme0q1").
  [INTERRUPTS_KIND]: new RegExp(
    // Bounded repeats: an unbounded digit run or "[^\n]*?" here made a 64 KiB line of digits take 17 s (redos test).
    String.raw`^[ \t]*CPU0[ \t]+CPU1\b|^[ \t]*(?:\[stdout\][ \t]?|>[ \t]?)?\d{1,12}:(?:[ \t]+\d{1,20}){1,512}[ \t]+\S[^\n]{0,160}?[ \t]` +
      String.raw`(?:nvme\d{1,4}q\d{1,4}|[a-z][\w.]{0,30}-(?:TxRx|Tx-Rx|rx|tx)-\d{1,4})[ \t]*$`,
    'm',
  ),
  [SEASTAR_AIO_KIND]: new RegExp(
    String.raw`aio-max-nr to at least \d+|Requested AIO slots too large|max-networking-io-control-blocks adjusted from|` +
      String.raw`Could not setup Async I\/O|not have enough AIO capacity|aio-max-nr - aio-nr = \d`,
  ),
  // `ethtool -S <nic>` with ENA's allowance counters.
  [ETHTOOL_STATS_KIND]: /^[ \t]*NIC statistics:[ \t]*$[\s\S]{0,20000}?_allowance_exceeded:/m,
  [SAR_KIND]: new RegExp(String.raw`^[ \t]*${SAR_ROW_PREFIX}(?:CPU[ \t]+%(?:user|usr)\b|DEV[ \t]+tps\b|kbmemfree\b|pgpgin/s\b|runq-sz\b|pswpin/s\b)`, 'm'),
};
