/**
 * scylla-doctor's vitals (`scylla_doctor.py --save-vitals vitals.json`): one JSON object keyed by collector class
 * name, each value `{status, data, message, mask}` (plus `output` with --include-output). status is 0 passed,
 * 1 failed, 2 skipped; a collector whose dependency failed fails too, with "Required X Collector has not run
 * successfully" (scylladb/scylla-doctor-oss scylla-doctor/collectors_base.py and scylla_doctor.py save_vitals at
 * 49d21c0d3db3). The file holds what the collectors gathered, not scylla-doctor's verdicts: its analyzers print
 * those separately (--output json). Read here: the host facts cql-tuner judges elsewhere and each collector's
 * status and message. PURE and total.
 */
import { perftuneFromObject, type PerftuneYaml } from '../../parse/host/perftune-object.js';
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';

export const SCYLLA_DOCTOR_VITALS_KIND = 'scylla-doctor.vitals';

export type CollectorStatus = 'passed' | 'failed' | 'skipped';

export interface CollectorRun {
  /** The collector's class name, as the vitals key it is saved under (ClockSourceCollector …). */
  name: string;
  status: CollectorStatus;
  message: string;
}

export interface StorageDir {
  /** StorageConfigurationCollector's group: data_file_directories, commitlog_directories, hints_directories … */
  group: string;
  path: string;
  filesystem: string | null;
  mountpoint: string | null;
  mountOptions: string[];
  sizeKiB: number | null;
  freeKiB: number | null;
  /** Disks perftune.py --dry-run names for the directory ("Setting NVMe disks: …", "Setting non-NVMe disks: …"). */
  disks: string[];
}

export interface RaidArray {
  name: string;
  state: string | null;
  level: string | null;
  members: string[];
}

export interface ScyllaSetupFiles {
  /** Names of the files in /etc/scylla.d (ScyllaExtraConfigurationFilesCollector). */
  files: string[];
  /** KEY=VALUE settings of its .conf files (CPUSET, SEASTAR_IO, DEV_MODE, MEM_CONF …), quotes already removed. */
  env: Record<string, string>;
  perftune: PerftuneYaml | null;
}

export interface ScyllaDoctorVitals {
  /** SDVersionCollector: the scylla-doctor that wrote the file. */
  sdVersion: string | null;
  /** Every collector entry, in file order. */
  collectors: CollectorRun[];
  clocksource: string | null;
  /** lscpu "CPU(s)" (CPUSpecificationsCollector). */
  logicalCores: number | null;
  /** cpufreq policy0's scaling_governor; null when the host has no cpufreq (or the collector did not pass). */
  scalingGovernor: string | null;
  /** `free` Mem: total, KiB (RAMCollector). */
  memTotalKiB: number | null;
  /** Sum of /proc/swaps sizes, KiB (SwapCollector). */
  swapTotalKiB: number | null;
  aioMaxNr: number | null;
  fileMax: number | null;
  nrOpen: number | null;
  /** timedatectl NTP and NTPSynchronized (NTPStatusCollector). */
  ntp: { enabled: boolean | null; synchronized: boolean | null } | null;
  /** chronyc tracking's leap status (ChronyStatusCollector). */
  chrony: { synchronized: boolean | null; leapStatus: string | null } | null;
  /** LimitNOFILE of scylla-server.service as systemd reports it (ScyllaLimitNOFILECollector). */
  limitNofile: number | 'infinity' | null;
  hypervisor: string | null;
  platform: string | null;
  os: { name: string | null; version: string | null } | null;
  kernel: string | null;
  architecture: string | null;
  scyllaVersion: string | null;
  scyllaD: ScyllaSetupFiles | null;
  /** scylla-server sysconfig file (ScyllaSystemConfigurationFilesCollector): SET_NIC_AND_DISKS, IFNAME, SCYLLA_ARGS … */
  sysconfig: Record<string, string> | null;
  storage: StorageDir[] | null;
  /** /proc/mdstat arrays (RAIDSetupCollector); null when it did not pass (skipped: no md module). */
  raid: RaidArray[] | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const STATUS: Record<number, CollectorStatus> = { 0: 'passed', 1: 'failed', 2: 'skipped' };

/** String values of a parsed KEY=VALUE file (configparser keeps numbers as text; nested "[section]" maps left out). */
function flatStrings(o: unknown): Record<string, string> {
  if (!isObj(o)) return {};
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** perftune.yaml as the collector parsed it (PyYAML) → the perftune reader; masks YAML read as integers go back to hex. */
function perftuneOf(o: unknown): PerftuneYaml | null {
  if (!isObj(o)) return null;
  const copy: Obj = { ...o };
  for (const k of ['cpu_mask', 'irq_cpu_mask']) {
    const n = copy[k];
    if (typeof n === 'number') copy[k] = `0x${n.toString(16)}`;
  }
  return perftuneFromObject(copy);
}

function scyllaDOf(data: Obj): ScyllaSetupFiles | null {
  const files = data['files'];
  if (!isObj(files)) return null;
  const env: Record<string, string> = {};
  for (const [name, parsed] of Object.entries(files)) if (/\.conf$/.test(name)) Object.assign(env, flatStrings(parsed));
  return { files: Object.keys(files).sort(), env, perftune: perftuneOf(files['perftune.yaml']) };
}

function storageOf(data: Obj): StorageDir[] {
  const out: StorageDir[] = [];
  for (const [group, dirs] of Object.entries(data)) {
    if (!isObj(dirs)) continue;
    for (const [path, d] of Object.entries(dirs)) {
      if (!isObj(d)) continue;
      const devices = isObj(d['devices']) ? d['devices'] : {};
      out.push({
        group,
        path,
        filesystem: str(d['filesystem']),
        mountpoint: str(d['mountpoint']),
        mountOptions: strings(d['mount_options']),
        sizeKiB: num(d['storage_size_kb']),
        freeKiB: num(d['free_storage_size_kb']),
        disks: [...strings(devices['nvme']), ...strings(devices['non_nvme'])],
      });
    }
  }
  return out;
}

function raidOf(data: Obj): RaidArray[] {
  const arrays = isObj(data['arrays']) ? data['arrays'] : {};
  return Object.entries(arrays)
    .filter((e): e is [string, Obj] => isObj(e[1]))
    .map(([name, a]) => ({ name, state: str(a['state']), level: str(a['level']), members: strings(a['members']) }));
}

function parse(text: string): Parsed<ScyllaDoctorVitals> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return unrecognized(SCYLLA_DOCTOR_VITALS_KIND, `the vitals JSON does not parse: ${(e as Error).message.slice(0, 120)}`);
  }
  if (!isObj(json)) return unrecognized(SCYLLA_DOCTOR_VITALS_KIND, 'not a JSON object of collector results');
  const collectors: CollectorRun[] = [];
  const passed = new Map<string, Obj>();
  const warnings: string[] = [];
  for (const [name, entry] of Object.entries(json)) {
    const status = isObj(entry) ? STATUS[num(entry['status']) ?? -1] : undefined;
    if (!isObj(entry) || status === undefined || !('data' in entry)) {
      warnings.push(`${name.slice(0, 80)}: not a collector result ({status 0|1|2, data, message}); left out`);
      continue;
    }
    collectors.push({ name, status, message: str(entry['message']) ?? '' });
    if (status === 'passed') passed.set(name, isObj(entry['data']) ? entry['data'] : {});
  }
  if (!collectors.some((c) => /Collector$/.test(c.name))) {
    return unrecognized(SCYLLA_DOCTOR_VITALS_KIND, 'no "…Collector": {status, data, message} entry (scylla-doctor --save-vitals)');
  }
  const d = (name: string): Obj | null => passed.get(name) ?? null;
  const cpu = d('CPUSpecificationsCollector');
  const scaling = d('CPUScalingCollector');
  const sysctl = d('SysctlCollector');
  const ntp = d('NTPStatusCollector');
  const chrony = d('ChronyStatusCollector');
  const nofile = d('ScyllaLimitNOFILECollector');
  const limit = str(nofile?.['limitnofile']);
  const osd = d('OSCollector');
  const arch = d('ComputerArchitectureCollector');
  const sysconf = d('ScyllaSystemConfigurationFilesCollector');
  const sysconfFiles = isObj(sysconf?.['files']) ? sysconf['files'] : null;
  const extra = d('ScyllaExtraConfigurationFilesCollector');
  const storage = d('StorageConfigurationCollector');
  const raid = d('RAIDSetupCollector');
  return parsedOk(
    SCYLLA_DOCTOR_VITALS_KIND,
    {
      sdVersion: str(d('SDVersionCollector')?.['version']),
      collectors,
      clocksource: str(d('ClockSourceCollector')?.['clocksource']),
      logicalCores: num(cpu?.['logical_cores']),
      scalingGovernor: str(scaling?.['scaling_governor']),
      memTotalKiB: num(d('RAMCollector')?.['total']),
      swapTotalKiB: num(d('SwapCollector')?.['total']),
      aioMaxNr: num(sysctl?.['fs.aio-max-nr']),
      fileMax: num(sysctl?.['fs.file-max']),
      nrOpen: num(sysctl?.['fs.nr_open']),
      ntp: ntp ? { enabled: bool(ntp['ntp_enabled']), synchronized: bool(ntp['ntp_synchronized']) } : null,
      chrony: chrony ? { synchronized: bool(chrony['chrony_synchronized']), leapStatus: str(chrony['leap_status']) } : null,
      limitNofile: limit === 'infinity' ? 'infinity' : limit !== null && /^\d{1,15}$/.test(limit) ? Number(limit) : null,
      hypervisor: str(d('HypervisorTypeCollector')?.['hypervisor']),
      platform: str(d('NodePlatformCollector')?.['platform']),
      os: osd ? { name: str(osd['name']), version: str(osd['version_minor']) ?? str(osd['version']) } : null,
      kernel: str(arch?.['kernel_version']),
      architecture: str(arch?.['architecture']),
      scyllaVersion: str(d('ScyllaVersionCollector')?.['version']),
      scyllaD: extra ? scyllaDOf(extra) : null,
      sysconfig: sysconfFiles ? flatStrings(sysconfFiles['scylla-server']) : null,
      storage: storage ? storageOf(storage) : null,
      raid: raid ? raidOf(raid) : null,
    },
    warnings,
  );
}

// The whole file is one JSON line (json.dump, no indent): it must reach JSON.parse uncut.
export const parseScyllaDoctorVitals = total(SCYLLA_DOCTOR_VITALS_KIND, parse, { maxLineChars: null });

/** A JSON object opening with a "…Collector": {"status"|"data"… entry (any key order), or SDVersionCollector's entry in the head. */
export const scyllaDoctorVitalsSignature = new RegExp(
  String.raw`^\s{0,200}\{\s{0,200}"[A-Za-z0-9_]{1,120}Collector"\s{0,200}:\s{0,200}\{\s{0,200}"(?:status|data|message|mask|output)"\s{0,200}:|` +
    String.raw`"SDVersionCollector"\s{0,200}:\s{0,200}\{`,
);
