/**
 * Kind modules (core/kinds/<kind>/, listed in core/kinds/registry.ts) carry everything about one output kind. This
 * holds each module to what the rest of the project derives from it: detect returns its kind for its own real
 * samples, interpret judges them by its rules, its findings cite only the knowledge it declares, each rule and
 * finding id has a catalogue entry, and its title reaches the kind titles.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect, judgeOf, SUPPORTED_KINDS } from '../../mcp-server/src/core/detect.js';
import { KIND_TITLES } from '../../mcp-server/src/core/kind-titles.js';
import { KIND_MODULES } from '../../mcp-server/src/core/kinds/registry.js';
import { hasKnowledge } from '../../mcp-server/src/core/knowledge/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CATALOGUE = readFileSync(join(ROOT, 'skills/diagnosing-cluster-performance/references/findings-catalogue.md'), 'utf8');

describe.each(KIND_MODULES.map((m) => [m.kind, m] as const))('kind module %s', (_kind, m) => {
  const dir = join(ROOT, 'tests/fixtures', m.fixtures);
  const samples = existsSync(dir) ? readdirSync(dir).filter((f) => !/^(README\.md|SOURCES\.tsv)$/.test(f)) : [];

  it('is registered once, in detect and in the kind titles', () => {
    // <family>.<name>; a family may be a hyphenated tool name (scylla-doctor.vitals)
    expect(m.kind).toMatch(/^[a-z]+(?:-[a-z]+)*\.[a-z0-9-]+$/);
    expect(SUPPORTED_KINDS.filter((k) => k === m.kind)).toHaveLength(1);
    expect(judgeOf(m.kind)).toEqual({ by: 'kind-rules', rules: m.judge });
    expect(KIND_TITLES[m.kind]).toBe(m.title);
    expect(m.title.length).toBeGreaterThan(3);
  });

  it('has real samples with provenance, each read as this kind and judged by its rules', () => {
    expect(samples.length, `${dir}: no samples`).toBeGreaterThan(0);
    const sources = readFileSync(join(dir, 'SOURCES.tsv'), 'utf8');
    for (const f of samples) {
      expect(sources, `${f} has no SOURCES.tsv row`).toContain(f);
      const text = readFileSync(join(dir, f), 'utf8');
      const d = detect(text);
      expect(d.ok && d.kind, f).toBe(m.kind);
      const r = interpretText(text);
      expect(r.kind, f).toBe(m.kind);
      // every rule of the module ran (found something or said why not)
      expect(r.checked.map((c) => c.rule).sort(), f).toEqual([...m.ruleIds].sort());
      for (const finding of r.findings) {
        for (const id of finding.knowledgeIds) expect(m.knowledgeIds, `${f}: ${finding.id} cites ${id}`).toContain(id);
      }
    }
  });

  it('cites knowledge that exists, and each rule has a catalogue entry', () => {
    for (const id of m.knowledgeIds) expect(hasKnowledge(id), id).toBe(true);
    for (const id of m.ruleIds) expect(CATALOGUE, `catalogue entry for ${id}`).toContain(`### \`${id}\``);
  });
});
