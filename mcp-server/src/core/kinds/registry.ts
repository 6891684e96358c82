/**
 * The kind modules (core/kinds/<kind>/index.ts), in detection order within their `order` slot. Adding a kind: its
 * folder and one line here (CONTRIBUTING.md). Older kinds still live in detect.ts's KINDS table and move here
 * one at a time.
 */
import { hostDf } from './host-df/index.js';
import { jvmJstat } from './jvm-jstat/index.js';
import { jvmTopThreads } from './jvm-top-threads/index.js';
import { nodetoolListPendingHints } from './nodetool-listpendinghints/index.js';
import { reaperRepairRuns } from './reaper-repair-runs/index.js';
import { scyllaDoctorVitals } from './scylla-doctor-vitals/index.js';
import type { KindModule } from './types.js';

export const KIND_MODULES: readonly KindModule[] = [jvmTopThreads, jvmJstat, nodetoolListPendingHints, reaperRepairRuns, hostDf, scyllaDoctorVitals];
