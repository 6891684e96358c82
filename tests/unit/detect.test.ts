import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { corpus, corpusFiles, FIXTURES_DIR, HAVE_CORPUS } from '../helpers/corpus.js';

// Which kind each real sample must be detected as, from its file name.
function expectedKind(file: string): string | null {
  const base = file.split('/').pop()!;
  const m = /nodetool[-_](?:n\d+_|n41_|node\d_)?([a-z]+)/.exec(base) ?? /^([a-z]+)_/.exec(base);
  if (!m) return null;
  const sub = m[1]!.replace(/^cfstats$/, 'tablestats').replace(/^cfhistograms$/, 'tablehistograms');
  return `nodetool.${sub}`;
}

describe('detect', () => {
  it.skipIf(!HAVE_CORPUS)('names the kind of every nodetool sample in the shared corpus', () => {
    const files = [...corpusFiles('nodetool', /\.txt$/), ...corpusFiles('local-runs', /^nodetool_.*\.txt$/)].filter((f) => !/timings/.test(f));
    expect(files.length).toBeGreaterThan(30);
    for (const f of files) {
      const want = expectedKind(f);
      const text = corpus(f);
      const d = detect(text);
      // The idle-node proxyhistograms failure is an error message, not an output.
      if (/InstanceNotFoundException/.test(text)) {
        expect(d.ok, f).toBe(false);
        continue;
      }
      expect(d.ok ? d.kind : d.reason, f).toBe(want);
    }
  });

  it('names the kind of every nodetool capture of the project’s own lab', () => {
    const root = join(FIXTURES_DIR, 'lab');
    let n = 0;
    for (const scenario of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
      for (const node of readdirSync(join(root, scenario)).filter((d) => d.startsWith('node'))) {
        for (const file of readdirSync(join(root, scenario, node)).filter((f) => f.startsWith('nodetool-'))) {
          const text = readFileSync(join(root, scenario, node, file), 'utf8');
          const sub = /^nodetool-([a-z]+)/.exec(file)![1]!;
          const d = detect(text);
          if (/Exception|error:/i.test(text.split('\n')[0] ?? '')) continue;
          expect(d.ok ? d.kind : `${d.reason}`, `${scenario}/${node}/${file}`).toBe(`nodetool.${sub}`);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(40);
  });

  it('says what is supported when it does not know the text', () => {
    const d = detect('hello world\nthis is not cassandra output');
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.reason).toMatch(/no supported output kind/);
      expect(d.supported).toContain('nodetool.tpstats');
    }
    expect(detect('').ok).toBe(false);
  });
});
