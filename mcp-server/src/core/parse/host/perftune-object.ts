/**
 * perftune.yaml's options as a parsed object (from the YAML file, or from scylla-doctor's vitals, which carry it
 * already parsed) → typed facts. Apart from scylla-setup.ts so a reader of parsed objects does not load the YAML
 * parser. PURE.
 */

/**
 * A CPU mask as perftune.yaml or /proc/irq/N/smp_affinity writes it: comma-separated 32-bit hex words, most
 * significant first, "0x" optional, empty words zero ("0x0000ffff,,0x00000001"). null when it is not one.
 */
export function parseHexMask(text: string | undefined | null): number[] | null {
  const s = (text ?? '').trim().replace(/^['"]|['"]$/g, '');
  if (s === '' || !/^(?:(?:0x)?[0-9a-fA-F]{0,8},)*(?:0x)?[0-9a-fA-F]{1,8}$/.test(s)) return null;
  const words = s.split(',').reverse();
  const cpus: number[] = [];
  words.forEach((w, i) => {
    const v = w === '' ? 0 : parseInt(w.replace(/^0x/i, ''), 16);
    for (let bit = 0; bit < 32; bit++) if ((v >>> bit) & 1) cpus.push(i * 32 + bit);
  });
  return cpus;
}

export interface PerftuneYaml {
  cpuMask: number[] | null;
  cpuMaskText: string | null;
  irqCpuMask: number[] | null;
  irqCpuMaskText: string | null;
  /** The pre-2023 layout ("sq", "sq_split", "mq"); irq_cpu_mask replaces it. */
  mode: string | null;
  nics: string[];
  tune: string[];
  tuneClock: boolean | null;
  dirs: string[];
  devs: string[];
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' || typeof v === 'number' ? [String(v)] : []);

/** perftune.yaml's keys, already parsed, as typed facts. */
export function perftuneFromObject(o: Record<string, unknown>): PerftuneYaml {
  const text1 = (k: string) => (typeof o[k] === 'string' || typeof o[k] === 'number' || typeof o[k] === 'boolean' ? String(o[k]) : null);
  const cpuMaskText = text1('cpu_mask');
  const irqCpuMaskText = text1('irq_cpu_mask');
  return {
    cpuMask: parseHexMask(cpuMaskText),
    cpuMaskText,
    irqCpuMask: parseHexMask(irqCpuMaskText),
    irqCpuMaskText,
    mode: text1('mode'),
    nics: list(o['nic']),
    tune: list(o['tune']),
    tuneClock: typeof o['tune_clock'] === 'boolean' ? o['tune_clock'] : null,
    dirs: list(o['dir']),
    devs: list(o['dev']),
  };
}
