/**
 * Issue #17, session 6: every entry carries a pinned `verified` record, and the entries that the primary source
 * contradicted while they were verified are fixed. Each test below fails on the entry as it was before the fix
 * (the old value or wording is named in the test).
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { ENTRIES } from '../../mcp-server/src/core/knowledge/entries.generated.js';
import { appliesTo, knowledge, numberOf } from '../../mcp-server/src/core/knowledge/index.js';
import { parseJvmOptions } from '../../mcp-server/src/core/parse/config/index.js';
import { jvmRules } from '../../mcp-server/src/core/rules/config.js';
import { verifiedSourceOk } from '../../scripts/gen-knowledge.mjs';

const GIB = 1024 ** 3;

function deadZoneFinding(heap: string): Finding | undefined {
  const parsed = parseJvmOptions(`-Xms${heap}\n-Xmx${heap}\n-XX:+UseG1GC\n`);
  if (!parsed.ok) throw new Error(parsed.reason);
  return jvmRules(parsed.value, { jdk: 17, hostRamBytes: 256 * GIB })
    .flatMap((o) => o.findings)
    .find((f) => f.id === 'config.jvm.heap-oops-dead-zone');
}

describe('every entry is verified against a pinned primary source', () => {
  it('each entry has verified.source naming a release tag or a doc section, and a check date', () => {
    const bad = ENTRIES.filter((e) => !e.verified || !verifiedSourceOk(e.verified.source) || !/^\d{4}-\d{2}-\d{2}$/.test(e.verified.checked));
    expect(bad.map((e) => e.id)).toEqual([]);
    expect(ENTRIES.length).toBeGreaterThanOrEqual(300);
  });
});

describe('entries the primary source contradicted, now fixed', () => {
  it('config.jvm.heap-oops-dead-zone: 32–47 GiB as its own source says (was 38, a number no source gave)', () => {
    expect(numberOf('config.jvm.heap-oops-dead-zone')).toBe(47);
    // A 40 GiB heap holds less than 31 GiB did: a warning, not the "deliberate large heap" info of ≥ 47 GiB.
    expect(deadZoneFinding('40G')?.severity).toBe('warning');
    expect(deadZoneFinding('48G')?.severity).toBe('info');
  });

  it('os.vm-max-map-count: cites StartupChecks (1048575), not the 1.2 page, which recommends 131072', () => {
    const e = knowledge('os.vm-max-map-count');
    expect(e.value).toBe(1048575);
    expect(e.sources.some((s) => /StartupChecks/.test(s.title))).toBe(true);
    expect(e.sources.some((s) => /cassandra\/1\.2\//.test(s.url ?? ''))).toBe(false);
  });

  it('migration.cassandra.java: 5.0 NEWS.txt calls Java 17 experimental, and the range stops before 5.1', () => {
    const e = knowledge('migration.cassandra.java');
    expect(e.statement).toMatch(/experimental/);
    expect(appliesTo(e, 'cassandra', '5.0.9')).toBe(true);
    expect(appliesTo(e, 'cassandra', '5.1.0')).toBe(false);
  });

  it('config.value-needs-unit: the three cache save periods kept their names and still take bare seconds', () => {
    expect(knowledge('config.value-needs-unit').statement).toMatch(/cache save periods/);
  });

  it('migration.scylla.unsupported-features: ScyllaDB has one custom index class of its own (vector_index, 2025.4+)', () => {
    expect(knowledge('migration.scylla.unsupported-features').statement).toMatch(/vector_index, from 2025\.4/);
  });

  it("benchmarking.significance-level: 0.05 is this project's convention; latte itself marks p ≤ 0.01", () => {
    const e = knowledge('benchmarking.significance-level');
    expect(e.tags).toContain('convention');
    expect(e.rationale).toMatch(/p ≤ 0\.01/);
  });

  it('storage.mkfs.dry-run: mkfs.xfs refuses an existing file system unless -f (its manual), not "a mounted" one', () => {
    const s = knowledge('storage.mkfs.dry-run').statement;
    expect(s).toMatch(/-f/);
    expect(s).not.toMatch(/mounted/);
  });

  it('driver.token-aware: simple statements route too when the application sets routing values', () => {
    expect(knowledge('driver.token-aware').statement).toMatch(/routing values/);
  });
});
