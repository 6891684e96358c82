/**
 * The YAML side of ScyllaDB's host set-up files: perftune.yaml and the `host.scylla-setup` kind (the KEY=VALUE files
 * of /etc/scylla.d with perftune.yaml around them). Apart from scylla-setup.ts because it loads the YAML parser.
 * PURE.
 */
import { parse as parseYaml } from 'yaml';
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { perftuneFromObject, type PerftuneYaml } from './perftune-object.js';
import { parseSysconfig, SCYLLA_SETUP_KIND, type ScyllaSetup } from './scylla-setup.js';

const PERFTUNE_KEYS = [
  'cpu_mask',
  'irq_cpu_mask',
  'mode',
  'nic',
  'tune',
  'tune_clock',
  'dir',
  'dev',
  'write_back_cache',
  'arfs',
  'num_rx_queues',
  'irq_core_auto_detection_ratio',
];
const PERFTUNE_LINE = new RegExp(`^(?:${PERFTUNE_KEYS.join('|')}):`);

/** perftune.yaml (perftune.py --dump-options-file); also reads its lines out of a longer paste. null when none. */
export function parsePerftuneYaml(text: string): PerftuneYaml | null {
  // Keep the perftune keys and the "- item" lines under them: the paste may hold other files around it.
  const kept: string[] = [];
  let inList = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (PERFTUNE_LINE.test(line)) {
      kept.push(line);
      inList = /:\s*$/.test(line);
      continue;
    }
    if (inList && /^\s*-\s+\S/.test(line)) {
      kept.push(line);
      continue;
    }
    inList = false;
  }
  if (kept.length === 0) return null;
  let y: unknown;
  try {
    y = parseYaml(kept.join('\n'), { uniqueKeys: false });
  } catch {
    return null;
  }
  if (y === null || typeof y !== 'object' || Array.isArray(y)) return null;
  return perftuneFromObject(y as Record<string, unknown>);
}

const SETUP_KEYS = /^\s*(?:CPUSET|SEASTAR_IO|DEV_MODE|MEM_CONF|SET_NIC_AND_DISKS|SET_CLOCKSOURCE|IFNAME|SCYLLA_ARGS|DISABLE_WRITEBACK_CACHE)=/m;

function parseSetup(text: string): Parsed<ScyllaSetup> {
  const env = Object.fromEntries(Object.entries(parseSysconfig(text)).filter(([k]) => SETUP_KEYS.test(`${k}=`)));
  const perftune = parsePerftuneYaml(text);
  if (Object.keys(env).length === 0 && (perftune === null || (perftune.cpuMaskText === null && perftune.nics.length === 0 && perftune.tune.length === 0))) {
    const what = 'cpuset.conf CPUSET=, io.conf SEASTAR_IO=, scylla-server SET_NIC_AND_DISKS=, perftune.yaml cpu_mask:';
    return unrecognized(SCYLLA_SETUP_KIND, `no ScyllaDB host setup found (${what})`);
  }
  return parsedOk(SCYLLA_SETUP_KIND, { env, perftune });
}

/** `cat /etc/scylla.d/*.conf /etc/scylla.d/perftune.yaml /etc/default/scylla-server` and the like. */
export const parseScyllaSetup = total(SCYLLA_SETUP_KIND, parseSetup);
