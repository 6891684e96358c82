/**
 * A scylla-doctor vitals file judged by the rules that judge the same host facts elsewhere: os:clocksource,
 * os:governor, os:time-sync (core/rules/os.ts), scylla-host:aio, :disk-ram and the set-up file rules
 * (core/rules/scylla-host.ts), storage:scylla-layout (core/rules/storage.ts). Their verdicts are kept; only the
 * evidence is rewritten to name the collector the value came from. A check whose collector did not pass says so,
 * with scylla-doctor's own message. The collectors' statuses are the only verdict-like field the file carries
 * (its analyzers' results are not saved in vitals): collectors that failed by themselves are reported once. PURE.
 */
import type { Finding } from '../../findings.js';
import { numberOf } from '../../knowledge/index.js';
import type { MdFacts, StorageFacts } from '../../parse/storage/facts.js';
import { emptyOsFacts, osRules, type OsFacts } from '../../rules/os.js';
import type { KindRuleOutcome } from '../../rules/per-kind.js';
import { emptyScyllaHostFacts, scyllaHostRules, type ScyllaHostFacts } from '../../rules/scylla-host.js';
import { storageRules } from '../../rules/storage.js';
import type { KindRule } from '../types.js';
import type { CollectorRun, ScyllaDoctorVitals, StorageDir } from './parse.js';

type V = ScyllaDoctorVitals;
const ORIGIN = 'scylla-doctor vitals';
// A collector that failed or was skipped because one it depends on did (collectors_base.py _collect_recursive)
const THROUGH_DEPENDENCY = /^Required \S+ Collector (?:has not run successfully|was skipped)/;

/** Why a collector's facts are missing, in scylla-doctor's own words. */
function notCollected(v: V, ...names: string[]): string {
  return names
    .map((n) => {
      const c = v.collectors.find((x) => x.name === n);
      if (!c) return `${n} is not in the vitals`;
      return c.status === 'passed' ? `${n} passed without this value` : `${n} ${c.status}: ${c.message.slice(0, 240)}`;
    })
    .join('; ');
}

/** A reused rule's outcome as a kind rule's result: its findings, or why it was not checked. */
function result(o: KindRuleOutcome | undefined, rewrite: (f: Finding) => Finding = (f) => f): Finding[] | string {
  if (!o) return 'the reused rule did not run';
  return o.checked ? o.findings.map(rewrite) : (o.skippedBecause ?? 'not checked');
}

function osFacts(v: V): OsFacts {
  return {
    ...emptyOsFacts(ORIGIN, 'scylla'),
    swapTotalKiB: v.swapTotalKiB,
    aioMaxNr: v.aioMaxNr,
    // scylla-doctor reads cpufreq policy0 only: one governor, counted once
    governors: v.scalingGovernor !== null ? { [v.scalingGovernor]: 1 } : null,
    clocksource: v.clocksource,
    timeSynced: timeSync(v),
    cpus: v.logicalCores,
    memTotalKiB: v.memTotalKiB,
  };
}

function timeSync(v: V): OsFacts['timeSynced'] {
  if (v.chrony && v.chrony.synchronized !== null)
    return { synced: v.chrony.synchronized, source: `ChronyStatusCollector leap status ${v.chrony.leapStatus ?? '?'}` };
  if (v.ntp && v.ntp.synchronized !== null) {
    const yn = (b: boolean | null) => (b === null ? '?' : b ? 'yes' : 'no');
    return { synced: v.ntp.synchronized, source: `NTPStatusCollector (timedatectl) NTPSynchronized=${yn(v.ntp.synchronized)}, NTP=${yn(v.ntp.enabled)}` };
  }
  return null;
}

const os = (v: V, rule: string) => osRules(osFacts(v)).find((o) => o.rule === rule);

/** The /etc/scylla.d and scylla-server settings, CPUs, RAM, AIO and data filesystem, as the scylla-host rules read them. */
export function hostFacts(v: V): ScyllaHostFacts {
  const data = dataDir(v);
  const env = v.scyllaD || v.sysconfig ? { ...(v.sysconfig ?? {}), ...(v.scyllaD?.env ?? {}) } : null;
  return {
    ...emptyScyllaHostFacts(ORIGIN),
    onlineCpus: v.logicalCores !== null ? Array.from({ length: v.logicalCores }, (_, i) => i) : null,
    memTotalKiB: v.memTotalKiB,
    aioMaxNr: v.aioMaxNr,
    nrOpen: v.nrOpen,
    fileMax: v.fileMax,
    env,
    perftune: v.scyllaD?.perftune ?? null,
    perftunePresent: v.scyllaD ? v.scyllaD.files.includes('perftune.yaml') : null,
    ioPropertiesPresent: v.scyllaD ? v.scyllaD.files.includes('io_properties.yaml') : null,
    dataFsBytes: data && data.sizeKiB !== null ? data.sizeKiB * 1024 : null,
    dataDir: data?.path ?? null,
  };
}

const dataDir = (v: V): StorageDir | undefined => v.storage?.find((s) => s.group === 'data_file_directories');
const host = (v: V, rule: string) => scyllaHostRules(hostFacts(v)).find((o) => o.rule === rule);
/** The CPU list of hostFacts comes from lscpu's count, not from /sys/devices/system/cpu/online. */
const cpuSource = (v: V) => (e: string) =>
  e.replace(/\/sys\/devices\/system\/cpu\/online [0-9,-]+/, `CPUSpecificationsCollector logical_cores ${v.logicalCores ?? '?'}`);

export const vitalsClocksource: KindRule<V> = {
  id: 'scylla-doctor.clocksource',
  checks: 'kernel clocksource (ClockSourceCollector), by the os:clocksource rule',
  run(v) {
    if (v.clocksource === null) return notCollected(v, 'ClockSourceCollector');
    return result(os(v, 'os:clocksource'), (f) => ({
      ...f,
      evidence: [`${ORIGIN}: ClockSourceCollector clocksource ${v.clocksource} (scylla-doctor does not collect the available clocksources)`],
    }));
  },
};

export const vitalsGovernor: KindRule<V> = {
  id: 'scylla-doctor.cpu-governor',
  checks: 'CPU frequency governor of cpufreq policy0 (CPUScalingCollector), by the os:governor rule',
  run(v) {
    if (!v.collectors.some((c) => c.name === 'CPUScalingCollector' && c.status === 'passed')) return notCollected(v, 'CPUScalingCollector');
    if (v.scalingGovernor === null)
      return 'CPUScalingCollector found no cpufreq scaling_governor (typical of VMs and containers: the hypervisor sets the frequency)';
    return result(os(v, 'os:governor'), (f) => ({
      ...f,
      title: f.title.replace(/ on 1 CPU\b/, ' on cpufreq policy0'),
      evidence: [`${ORIGIN}: CPUScalingCollector /sys/devices/system/cpu/cpufreq/policy0/scaling_governor ${v.scalingGovernor}`],
    }));
  },
};

export const vitalsTimeSync: KindRule<V> = {
  id: 'scylla-doctor.time-sync',
  checks: 'clock synchronisation (ChronyStatusCollector, else NTPStatusCollector), by the os:time-sync rule',
  run(v) {
    if (timeSync(v) === null) return notCollected(v, 'ChronyStatusCollector', 'NTPStatusCollector');
    return result(os(v, 'os:time-sync'));
  },
};

export const vitalsAio: KindRule<V> = {
  id: 'scylla-doctor.aio',
  checks: "fs.aio-max-nr (SysctlCollector) against Seastar's AIO need for the shards (cpuset.conf, else lscpu CPUs), by the scylla-host:aio rule",
  run(v) {
    if (v.aioMaxNr === null) return notCollected(v, 'SysctlCollector');
    const o = host(v, 'scylla-host:aio');
    if (o && !o.checked) return `${o.skippedBecause ?? 'not checked'} (${notCollected(v, 'CPUSpecificationsCollector')})`;
    // aio-nr is not collected: the whole fs.aio-max-nr counts as free
    return result(o, (f) => ({ ...f, evidence: f.evidence.map(cpuSource(v)).map((e) => e.replace(/, fs\.aio-nr \? /, ', fs.aio-nr not collected ')) }));
  },
};

const SETUP_RULES = ['scylla-host:shards', 'scylla-host:cpuset-masks', 'scylla-host:perftune', 'scylla-host:io-setup', 'scylla-host:developer-mode'];

export const vitalsSetup: KindRule<V> = {
  id: 'scylla-doctor.scylla-setup',
  checks:
    'the /etc/scylla.d files and scylla-server settings (ScyllaExtraConfigurationFilesCollector, ScyllaSystemConfigurationFilesCollector), by ' +
    'scylla-host:shards, :cpuset-masks, :perftune, :io-setup and :developer-mode',
  run(v) {
    if (v.scyllaD === null && v.sysconfig === null) return notCollected(v, 'ScyllaExtraConfigurationFilesCollector', 'ScyllaSystemConfigurationFilesCollector');
    const outcomes = scyllaHostRules(hostFacts(v)).filter((o) => SETUP_RULES.includes(o.rule));
    if (!outcomes.some((o) => o.checked)) return outcomes.map((o) => `${o.rule}: ${o.skippedBecause ?? 'not checked'}`).join('; ');
    return outcomes.flatMap((o) => o.findings.map((f) => ({ ...f, evidence: f.evidence.map(cpuSource(v)) })));
  },
};

export const vitalsNofile: KindRule<V> = {
  id: 'scylla-doctor.limit-nofile',
  checks: "scylla-server.service LimitNOFILE (ScyllaLimitNOFILECollector) against the unit's value, fs.nr_open and fs.file-max (SysctlCollector)",
  run(v) {
    const limit = v.limitNofile;
    if (limit === null) return notCollected(v, 'ScyllaLimitNOFILECollector');
    const want = numberOf('scylla-host.nofile');
    const bad: string[] = [];
    // systemd turns LimitNOFILE=infinity into fs.nr_open, so only a number can be too low or too high
    if (limit !== 'infinity') {
      if (limit < want) bad.push(`LimitNOFILE ${limit} < ${want}`);
      if (v.nrOpen !== null && limit > v.nrOpen) bad.push(`LimitNOFILE ${limit} above fs.nr_open ${v.nrOpen} (the kernel refuses it)`);
      if (v.fileMax !== null && v.fileMax < limit) bad.push(`fs.file-max ${v.fileMax} below LimitNOFILE ${limit}`);
    }
    if (!bad.length) return [];
    return [
      {
        id: 'scylla-host.nofile-low',
        severity: 'warning',
        title: `scylla-server.service open files: ${bad.join('; ')}`,
        evidence: [
          `${ORIGIN}: ScyllaLimitNOFILECollector LimitNOFILE ${limit}; SysctlCollector fs.nr_open ${v.nrOpen ?? '?'}, fs.file-max ${v.fileMax ?? '?'}`,
        ],
        recommendation:
          `Keep the unit's LimitNOFILE=${want} (a drop-in under /etc/systemd/system/scylla-server.service.d/ overrides it) and install ` +
          '99-scylla-filemax.conf (fs.nr_open, fs.file-max); the running process keeps its limit until restarted.',
        knowledgeIds: ['scylla-host.nofile'],
        confidence: 'high',
      },
    ];
  },
};

export const vitalsDiskRam: KindRule<V> = {
  id: 'scylla-doctor.disk-ram',
  checks: 'data filesystem size (StorageConfigurationCollector) against RAM (RAMCollector), by the scylla-host:disk-ram rule',
  run(v) {
    const d = dataDir(v);
    if (!d || d.sizeKiB === null) return notCollected(v, 'StorageConfigurationCollector');
    if (v.memTotalKiB === null) return notCollected(v, 'RAMCollector');
    return result(host(v, 'scylla-host:disk-ram'), (f) => ({
      ...f,
      evidence: [`${ORIGIN}: StorageConfigurationCollector ${d.path} on ${d.mountpoint ?? '?'}: ${d.sizeKiB} KiB; RAMCollector total ${v.memTotalKiB} KiB`],
    }));
  },
};

/** The md array a directory's disks belong to: perftune names the member disks, mdstat lists them (maybe as partitions). */
function arrayOf(d: StorageDir, md: MdFacts[]): string | null {
  if (!d.disks.length) return null;
  const hit = md.filter((m) => d.disks.every((disk) => m.members.some((x) => x === disk || x.startsWith(disk))));
  return hit.length === 1 ? hit[0]!.name : null;
}

export const vitalsStorageLayout: KindRule<V> = {
  id: 'scylla-doctor.storage-layout',
  checks: 'data directories on XFS over RAID0 (StorageConfigurationCollector, RAIDSetupCollector), by the storage:scylla-layout rule',
  run(v) {
    const dirs = v.storage?.filter((s) => s.group === 'data_file_directories') ?? [];
    if (!dirs.length) return notCollected(v, 'StorageConfigurationCollector');
    const md: MdFacts[] = (v.raid ?? [])
      .filter((a) => a.state === 'active')
      .map((a) => ({ name: a.name, level: a.level, chunkBytes: null, members: a.members, layout: null, raidDisks: null }));
    const facts: StorageFacts = {
      origin: `${ORIGIN} StorageConfigurationCollector`,
      product: 'scylla',
      devices: [],
      md,
      mounts: [],
      xfs: [],
      dirs: dirs.map((d) => ({ role: 'data', path: d.path, mountpoint: d.mountpoint, device: arrayOf(d, md), fstype: d.filesystem, physical: d.disks })),
      unread: [],
    };
    return result(storageRules(facts).find((o) => o.rule === 'storage:scylla-layout'));
  },
};

const rootFailure = (c: CollectorRun) =>
  (c.status === 'failed' && !THROUGH_DEPENDENCY.test(c.message)) || (c.status === 'skipped' && /Insufficient privileges/.test(c.message));

export const vitalsCollection: KindRule<V> = {
  id: 'scylla-doctor.collection',
  checks: "each collector's status: failed by itself, or skipped for lack of root (not through a collector it depends on)",
  run(v) {
    const roots = v.collectors.filter(rootFailure);
    if (!roots.length) return [];
    const through = v.collectors.filter((c) => c.status !== 'passed' && THROUGH_DEPENDENCY.test(c.message));
    const count = (s: string) => v.collectors.filter((c) => c.status === s).length;
    const failed = count('failed');
    const shown = roots.slice(0, 15).map((c) => `${c.name} ${c.status}: ${c.message.trim().slice(0, 200)}`);
    const scyllaMissing = roots.some((c) => /^Scylla(?:ConfigurationFile|ExtraConfigurationFiles|SystemConfigurationFiles|Binary)Collector$/.test(c.name));
    const needRoot = roots.some((c) => c.status === 'skipped');
    return [
      {
        id: 'scylla-doctor.collection-gaps',
        severity: 'info',
        title:
          `${roots.length} scylla-doctor collector(s) failed by themselves` +
          `${through.length ? `, ${through.length} more through a collector they need` : ''} ` +
          `(${failed} failed of ${v.collectors.length})`,
        evidence: [
          `${ORIGIN} (scylla-doctor ${v.sdVersion ?? '?'}): ${count('passed')} passed, ${failed} failed, ${count('skipped')} skipped`,
          ...shown.map((s) => `${ORIGIN}: ${s}`),
          ...(roots.length > shown.length ? [`… and ${roots.length - shown.length} more`] : []),
        ],
        recommendation:
          (scyllaMissing
            ? 'scylla-doctor found no ScyllaDB installation where it looks (/etc/scylla, /etc/scylla.d, /opt/scylladb): run it on the node ' +
              'itself, or point its [DefaultPaths] at the install. '
            : '') +
          (needRoot ? 'Some collectors need root: run it with sudo. ' : '') +
          'Install the tools the messages name, re-run `scylla_doctor.py --save-vitals` and send the new file: the checks that needed these ' +
          'collectors are listed as not checked.',
        knowledgeIds: ['scylla-doctor.collector-status'],
        confidence: 'high',
      },
    ];
  },
};

export const VITALS_RULES = [
  vitalsCollection,
  vitalsClocksource,
  vitalsGovernor,
  vitalsTimeSync,
  vitalsAio,
  vitalsNofile,
  vitalsDiskRam,
  vitalsStorageLayout,
  vitalsSetup,
] as const;
