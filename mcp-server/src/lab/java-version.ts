/**
 * Major Java version from `java -version` output (printed on stderr), e.g.
 * `openjdk version "17.0.15" 2025-04-15` → 17, `java version "1.8.0_381"` → 8, `openjdk version "21-ea"` → 21.
 * Returns null when no version line is found.
 */
export function parseJavaMajor(output: string): number | null {
  const m = /\bversion\s+"(\d+)(?:\.(\d+))?[^"]*"/.exec(output);
  if (!m || !m[1]) return null;
  const first = Number.parseInt(m[1], 10);
  // Java 8 and older report "1.x".
  if (first === 1 && m[2] !== undefined) return Number.parseInt(m[2], 10);
  return first;
}

/** The first line, for messages ("openjdk version "17.0.15" 2025-04-15"). */
export function javaVersionLine(output: string): string {
  const line = output.split(/\r?\n/).find((l) => /\bversion\s+"/.test(l));
  return (line ?? output.split(/\r?\n/)[0] ?? '').trim();
}
