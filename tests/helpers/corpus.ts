import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** ../shared/corpus beside the checkout (present for developers and CI); tests skip with a message without it. */
export const CORPUS_DIR = resolve(import.meta.dirname, '../../../shared/corpus');
export const HAVE_CORPUS = existsSync(CORPUS_DIR);
if (!HAVE_CORPUS) process.stderr.write(`note: ${CORPUS_DIR} is absent; corpus tests are skipped\n`);

export function corpus(rel: string): string {
  return readFileSync(join(CORPUS_DIR, rel), 'utf8');
}

/** Every corpus file under dir whose name matches re (recursive). */
export function corpusFiles(dir: string, re: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(join(CORPUS_DIR, d), { withFileTypes: true })) {
      const rel = join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else if (re.test(e.name)) out.push(rel);
    }
  };
  if (HAVE_CORPUS) walk(dir);
  return out.sort();
}

export const FIXTURES_DIR = resolve(import.meta.dirname, '../fixtures');
export function fixture(rel: string): string {
  return readFileSync(join(FIXTURES_DIR, rel), 'utf8');
}
