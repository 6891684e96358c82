import { labStatus, startLab, stopLab, type LabVersion } from '../lab/index.js';
import { runNodetool, type NodetoolReport } from './nodetool.js';
import type { ProgressFn } from './progress.js';
import { diagnose, type DiagnosisReport } from './diagnose.js';
import { z } from 'zod';

/** `cql-tuner demo`: a lab of 1 or 3 nodes of a supported line, kept afterwards or not. */
export const demoInputSchema = z.object({
  nodes: z.union([z.literal(1), z.literal(3)]).default(1),
  version: z.enum(['5.0', '4.1']).default('5.0'),
  keep: z.boolean().default(false),
});

export interface DemoReport {
  startedLab: boolean;
  stoppedLab: boolean;
  version: string | null;
  reports: NodetoolReport[];
  diagnosis: DiagnosisReport | null;
}

/**
 * The README's main job: a real Cassandra started here, looked at through the same operations the MCP tools
 * use: nodetool version and status, then a full diagnosis (snapshot + rules → findings, and what was checked).
 */
export async function runDemo(opts: { nodes: 1 | 3; version: LabVersion; keep: boolean; onProgress?: ProgressFn; signal?: AbortSignal }): Promise<DemoReport> {
  const before = await labStatus();
  let startedLab = false;
  if (!before.running) {
    await startLab({ nodes: opts.nodes, version: opts.version, onProgress: opts.onProgress, signal: opts.signal });
    startedLab = true;
  }
  const status = await labStatus();
  const reports: NodetoolReport[] = [];
  let diagnosis: DiagnosisReport | null = null;
  try {
    const first = status.nodes[0];
    if (!first) throw new Error('the lab reports no nodes');
    for (const sub of ['version', 'status', 'info'] as const) {
      reports.push(await runNodetool({ subcommand: sub, host: first.host, port: first.jmxPort }, { onProgress: opts.onProgress, signal: opts.signal }));
    }
    diagnosis = await diagnose({ lab: true }, { onProgress: opts.onProgress, signal: opts.signal });
  } finally {
    // Leave the machine as found: a lab this run started is stopped unless asked to keep it.
    if (startedLab && !opts.keep) await stopLab({ onProgress: opts.onProgress });
  }
  return { startedLab, stoppedLab: startedLab && !opts.keep, version: status.state?.fullVersion ?? null, reports, diagnosis };
}
