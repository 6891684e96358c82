/**
 * What plan_mkfs returns, as data: ops/plan-mkfs.ts fills it, render/plan-mkfs.ts prints it. Types only, in core so
 * the renderer depends down.
 */
import type { XfsGeometry } from '../parse/storage/mkfs-xfs.js';
import type { MkfsDevice, MkfsPlan } from '../planners/mkfs.js';

export interface PlanMkfsReport {
  target: string;
  plan: MkfsPlan;
  devices: (MkfsDevice & { source: 'sysfs' | 'given' | 'assumed' })[];
  dryRun:
    | { ran: true; argv: string[]; output: string; geometry: XfsGeometry | null; existingFilesystem: boolean; mismatches: string[] }
    | { ran: false; why: string };
}
