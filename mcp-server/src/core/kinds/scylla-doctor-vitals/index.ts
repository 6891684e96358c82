/** scylla-doctor's vitals JSON (`scylla_doctor.py --save-vitals`): the host facts it collected, and which collectors failed. */
import { defineKind } from '../types.js';
import { parseScyllaDoctorVitals, SCYLLA_DOCTOR_VITALS_KIND, scyllaDoctorVitalsSignature } from './parse.js';
import { VITALS_RULES } from './rules.js';

export const scyllaDoctorVitals = defineKind({
  kind: SCYLLA_DOCTOR_VITALS_KIND,
  title: 'scylla-doctor --save-vitals (vitals.json)',
  signature: scyllaDoctorVitalsSignature,
  parse: parseScyllaDoctorVitals,
  // A JSON object keyed by "…Collector": no log line or other output starts so
  order: 'before-logs',
  rules: VITALS_RULES,
  knowledgeIds: [
    'scylla-doctor.collector-status',
    'os.clocksource',
    'os.cpu-governor',
    'os.time-sync',
    'scylla-host.aio-per-shard',
    'os.aio-max-nr.scylla',
    'scylla-host.nofile',
    'scylla-host.disk-ram-ratio',
    'storage.scylla.xfs',
    'storage.scylla.raid0',
    'scylla-host.smp-vs-cpus',
    'scylla.shard-per-core',
    'scylla-host.overprovisioned-dedicated',
    'scylla.overprovisioned',
    'scylla-host.cpuset-perftune-masks',
    'scylla-host.perftune-net-switch',
    'scylla-host.irq-affinity',
    'scylla-host.io-setup',
    'scylla-host.developer-mode-conf',
    'config.scylla.developer-mode',
  ],
  fixtures: 'scylla-doctor-vitals',
  summary: (v) => {
    const n = (s: string) => v.collectors.filter((c) => c.status === s).length;
    return (
      `scylla-doctor ${v.sdVersion ?? '?'} vitals: ${v.collectors.length} collectors ` +
      `(${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped); ` +
      `${v.logicalCores ?? '?'} CPUs, RAM ${v.memTotalKiB ?? '?'} KiB, clocksource ${v.clocksource ?? '?'}, fs.aio-max-nr ${v.aioMaxNr ?? '?'}`
    );
  },
});
