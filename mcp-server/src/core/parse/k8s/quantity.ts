/**
 * Kubernetes resource quantities ("500m", "2", "8Gi", "512M", "1e3") as numbers: CPU in cores, memory in bytes.
 * Suffixes as the API server reads them (k8s.io/apimachinery/pkg/api/resource): binary Ki…Ei, decimal k…E, milli m.
 */
const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** A quantity (string or YAML number) → its value, or null when it is not one. */
export function parseQuantity(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?\s*$/.exec(v);
  if (!m) return null;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  const factor = BINARY[suffix] ?? DECIMAL[suffix];
  const out = factor === undefined ? NaN : n * factor;
  return Number.isFinite(out) ? out : null;
}

/**
 * A JVM size as -Xmx takes it ("512m", "8G", "1024k", bytes): lower- or upper-case k/m/g/t are powers of 1024.
 * cass-operator's jvm-server-options keep this form ("512m").
 */
export function parseJvmSize(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^\s*(\d+)\s*([kKmMgGtT])?\s*$/.exec(v);
  if (!m) return null;
  const pow = { k: 1, m: 2, g: 3, t: 4 }[(m[2] ?? '').toLowerCase() as 'k' | 'm' | 'g' | 't'] ?? 0;
  return Number(m[1]) * 1024 ** pow;
}
