/** Real outputs to mutate and truncate: the shared corpus (with local-runs) and the lab fixtures. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { detect } from '../../mcp-server/src/core/detect.js';
import { CORPUS_DIR, FIXTURES_DIR, HAVE_CORPUS } from '../helpers/corpus.js';

export interface Sample {
  /** Path relative to its root, prefixed "corpus/" or "fixtures/". */
  name: string;
  text: string;
  /** What detect makes of the whole sample (null when it recognises nothing). */
  kind: string | null;
}

const SKIP = /^(README\.md|SOURCES\.tsv)$/;

function walk(root: string, prefix: string, out: Sample[]): void {
  if (!existsSync(root)) return;
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile() && !SKIP.test(e.name) && statSync(p).size <= 4 * 1024 * 1024) {
        const text = readFileSync(p, 'utf8');
        const d = detect(text);
        out.push({ name: `${prefix}/${relative(root, p)}`, text, kind: d.ok ? d.kind : null });
      }
    }
  };
  visit(root);
}

let cache: Sample[] | null = null;

/** Every sample (corpus only when /work/shared is there; the fixtures ship with the repository). */
export function loadSamples(): Sample[] {
  if (cache) return cache;
  const out: Sample[] = [];
  if (HAVE_CORPUS) walk(CORPUS_DIR, 'corpus', out);
  walk(join(FIXTURES_DIR, 'lab'), 'fixtures', out);
  cache = out.sort((a, b) => a.name.localeCompare(b.name));
  return cache;
}

/** Cut points for "truncate at every line": every line for short samples, evenly spaced for long ones. */
export function lineCuts(text: string, maxCuts: number): number[] {
  const ends: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) ends.push(i + 1);
  if (ends.length <= maxCuts) return ends;
  const step = ends.length / maxCuts;
  return Array.from({ length: maxCuts }, (_, i) => ends[Math.floor(i * step)]!);
}
