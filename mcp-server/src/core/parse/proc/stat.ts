/**
 * /proc/stat: CPU time since boot in USER_HZ ticks (proc(5)): the aggregate "cpu" line is user, nice, system,
 * idle, iowait, irq, softirq, steal, guest, guest_nice; guest time is already counted in user/nice. PURE.
 */
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';

export interface CpuTicks {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
  guest: number;
  guestNice: number;
}

export interface ProcStat {
  cpu: CpuTicks;
  /** Number of per-CPU lines (cpu0, cpu1, …): the CPUs online. */
  cpus: number;
  contextSwitches: number | null;
  bootTime: number | null;
  procsRunning: number | null;
  procsBlocked: number | null;
}

function ticks(fields: string[]): CpuTicks | null {
  const n = fields.map(Number);
  if (n.length < 4 || n.some((x) => !Number.isFinite(x))) return null;
  const v = (i: number) => n[i] ?? 0;
  return { user: v(0), nice: v(1), system: v(2), idle: v(3), iowait: v(4), irq: v(5), softirq: v(6), steal: v(7), guest: v(8), guestNice: v(9) };
}

function parse(text: string): Parsed<ProcStat> {
  let cpu: CpuTicks | null = null;
  let cpus = 0;
  const scalar: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const parts = line.trim().split(/\s+/);
    const key = parts[0] ?? '';
    if (key === 'cpu') cpu = ticks(parts.slice(1));
    else if (/^cpu\d+$/.test(key)) cpus++;
    else if (parts.length === 2 && /^\d+$/.test(parts[1]!)) scalar[key] = Number(parts[1]);
  }
  if (!cpu) return unrecognized('proc-stat', 'no aggregate "cpu" line with at least 4 numbers');
  const s = (k: string) => scalar[k] ?? null;
  const procs = { procsRunning: s('procs_running'), procsBlocked: s('procs_blocked') };
  return parsedOk('proc-stat', { cpu, cpus, contextSwitches: s('ctxt'), bootTime: s('btime'), ...procs });
}

export const parseProcStat = total('proc-stat', parse);
