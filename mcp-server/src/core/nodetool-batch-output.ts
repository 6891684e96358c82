/** One command's share of a batched nodetool run (see collect/nodetool-batch-source.ts for the protocol). */
export interface BatchSection {
  stdout: string;
  stderr: string;
  /** null when the runner never reached the end of this command (killed, timed out, crashed). */
  status: number | null;
  ms: number | null;
  /** nodetool ended the JVM itself (System.exit, e.g. on a failed JMX connection) during this command. */
  exited: boolean;
}

/**
 * Splits a batch runner's stdout into `count` sections. Pure and total: sections the text does not
 * complete come back with status null and whatever output was seen.
 */
export function splitBatchOutput(text: string, marker: string, count: number): BatchSection[] {
  const sections: BatchSection[] = Array.from({ length: count }, () => ({ stdout: '', stderr: '', status: null, ms: null, exited: false }));
  if (!marker || count <= 0) return sections;
  for (let i = 0; i < count; i++) {
    const outHead = `${marker} out ${i}\n`;
    const start = text.indexOf(outHead);
    if (start < 0) continue;
    const bodyStart = start + outHead.length;
    const errHead = `\n${marker} err ${i}\n`;
    const errAt = text.indexOf(errHead, bodyStart);
    if (errAt < 0) {
      sections[i]!.stdout = text.slice(bodyStart);
      continue;
    }
    sections[i]!.stdout = text.slice(bodyStart, errAt);
    const errBody = errAt + errHead.length;
    const endRe = new RegExp(`\\n${escape(marker)} end ${i} (-?\\d+|exit) (\\d+)\\n`, 'g');
    endRe.lastIndex = errBody;
    const end = endRe.exec(text);
    if (!end) {
      sections[i]!.stderr = text.slice(errBody);
      continue;
    }
    sections[i]!.stderr = text.slice(errBody, end.index);
    sections[i]!.exited = end[1] === 'exit';
    // System.exit from nodetool means failure (it exits 1 on a failed connection).
    sections[i]!.status = end[1] === 'exit' ? 1 : Number(end[1]);
    sections[i]!.ms = Number(end[2]);
  }
  return sections;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
