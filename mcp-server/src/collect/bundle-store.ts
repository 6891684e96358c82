import { OpError } from '../core/errors.js';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { nodeFactsFromRaw } from '../core/facts/from-raw.js';
import { namedDirectory, readBundleFile } from './safe-file.js';
import type { NodeRaw, RawSourceResult, SweepNode } from '../core/reports/sweep.js';

/**
 * A bundle is a folder: manifest.json plus one raw file per source per node, so a snapshot can be
 * re-analysed offline with the same parsers. Written to a temporary sibling and renamed into place:
 * a crash never leaves a half-written bundle under the requested name.
 */
export interface BundleManifest {
  format: 'cql-tuner-bundle/1';
  tool: { name: 'cql-tuner'; version: string };
  collectedAt: string;
  durationMs: number;
  contactPoints: string[];
  nodes: {
    node: SweepNode;
    dir: string;
    ms: number;
    cqlReachable: boolean;
    virtualTables: string[];
    /** The database version the node reported (null: unknown). Absent in bundles written before it was recorded. */
    version?: string | null;
    /** cassandra | scylla | unknown, alongside the version (ScyllaDB and Cassandra numbers overlap). */
    product?: 'cassandra' | 'scylla' | 'unknown';
    sources: (Omit<RawSourceResult, 'text'> & { file?: string })[];
  }[];
}

const fileNameFor = (source: string) =>
  source
    .replace(/^cql:/, 'cql-')
    .replace(/^nodetool:/, 'nodetool-')
    .replace(/[^A-Za-z0-9_.-]/g, '_') + (source.startsWith('cql:') ? '.tsv' : '.txt');

export async function writeBundle(dir: string, meta: Omit<BundleManifest, 'format' | 'nodes'>, nodes: NodeRaw[]): Promise<string> {
  const finalDir = resolve(dir);
  const existing = await stat(finalDir).catch(() => null);
  if (existing) {
    const entries = existing.isDirectory() ? await readdir(finalDir) : ['(a file)'];
    if (entries.length) {
      throw new OpError(
        'BUNDLE_EXISTS',
        `bundle directory ${finalDir} already exists and is not empty`,
        'Choose a new directory name; bundles are never overwritten.',
      );
    }
  }
  await mkdir(dirname(finalDir), { recursive: true });
  const tmp = `${finalDir}.partial-${process.pid}-${Date.now()}`;
  try {
    const manifest: BundleManifest = { format: 'cql-tuner-bundle/1', ...meta, nodes: [] };
    for (const n of nodes) {
      const nodeDir = n.node.address.replace(/[^A-Za-z0-9_.-]/g, '_');
      await mkdir(join(tmp, nodeDir), { recursive: true });
      const sources: BundleManifest['nodes'][number]['sources'] = [];
      for (const s of n.sources) {
        const { text, ...rest } = s;
        if (text !== undefined) {
          const file = fileNameFor(s.name);
          await writeFile(join(tmp, nodeDir, file), text);
          sources.push({ ...rest, file: `${nodeDir}/${file}` });
        } else sources.push(rest);
      }
      const { version, product } = versionOf(n);
      manifest.nodes.push({ node: n.node, dir: nodeDir, ms: n.ms, cqlReachable: n.cqlReachable, virtualTables: n.virtualTables, version, product, sources });
    }
    await writeFile(join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    if (existing) await rm(finalDir, { recursive: true, force: true });
    await rename(tmp, finalDir);
    return finalDir;
  } catch (e) {
    await rm(tmp, { recursive: true, force: true }).catch(() => {});
    if ((e as NodeJS.ErrnoException).code === 'ENOSPC') {
      throw new OpError(
        'DISK_FULL',
        `no space left on the device holding ${finalDir} (ENOSPC): the bundle was not written (its partial copy was removed)`,
        'Free space there or choose a bundle directory on a file system with room, then collect again.',
      );
    }
    throw e;
  }
}

/** Largest manifest.json and raw file read from a bundle (outputs are capped at 16 MiB when collected), and all together. */
export const BUNDLE_MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
export const BUNDLE_MAX_FILE_BYTES = 32 * 1024 * 1024;
export const BUNDLE_MAX_TOTAL_BYTES = 512 * 1024 * 1024;

const BUNDLE_FIX = 'Point at a folder written by `cql-tuner snapshot --bundle DIR`.';
const notABundle = (message: string, fix = BUNDLE_FIX) => new OpError('NOT_A_BUNDLE', message, fix);

/**
 * Reads a bundle back. Its folder is named by a caller and its contents are untrusted: every file goes through
 * collect/safe-file.ts (no symbolic link, no FIFO or device, nothing outside the folder, a size cap per file and
 * in total). A raw file that is refused is left out and its source says why; a refused manifest refuses the bundle.
 */
export async function readBundle(dir: string, opts: { signal?: AbortSignal } = {}): Promise<{ manifest: BundleManifest; nodes: NodeRaw[] }> {
  const named = resolve(dir);
  const rootDir = await namedDirectory(named);
  if (!rootDir.ok) throw notABundle(`${named} is not a cql-tuner bundle: it ${rootDir.reason}`);
  const root = rootDir.path;
  const limits = { ...(opts.signal ? { signal: opts.signal } : {}) };
  let manifest: BundleManifest;
  const m = await readBundleFile(root, 'manifest.json', { ...limits, maxBytes: BUNDLE_MAX_MANIFEST_BYTES });
  if (!m.ok) throw notABundle(`${named} is not a cql-tuner bundle: manifest.json ${m.reason}`);
  try {
    manifest = JSON.parse(m.text) as BundleManifest;
  } catch (e) {
    throw notABundle(`${named} is not a cql-tuner bundle: ${(e as Error).message}`);
  }
  if (manifest?.format !== 'cql-tuner-bundle/1' || !Array.isArray(manifest.nodes) || !manifest.nodes.every((n) => Array.isArray(n?.sources))) {
    throw notABundle(`${named}/manifest.json has an unknown format ${JSON.stringify(manifest?.format)}`, 'Use a bundle written by this version of cql-tuner.');
  }
  const nodes: NodeRaw[] = [];
  let total = 0;
  for (const n of manifest.nodes) {
    const sources: RawSourceResult[] = [];
    for (const s of n.sources) {
      const { file, ...rest } = s;
      if (typeof file !== 'string') {
        sources.push(rest);
        continue;
      }
      // A manifest must not point outside its own bundle.
      if (!resolve(root, file).startsWith(`${root}/`)) {
        throw notABundle(`manifest names a file outside the bundle: ${file}`, 'The bundle was tampered with; collect a new one.');
      }
      const r = await readBundleFile(root, file, { ...limits, maxBytes: Math.min(BUNDLE_MAX_FILE_BYTES, BUNDLE_MAX_TOTAL_BYTES - total) });
      if (r.ok) {
        total += r.bytes;
        sources.push({ ...rest, text: r.text });
      } else if (r.code === 'ABORTED') {
        throw new OpError('CANCELLED', `reading bundle ${named} was cancelled`, 'Run it again.');
      } else if (r.code === 'NOT_FOUND') {
        sources.push(rest); // a file removed from the bundle: the source simply has no text, as before
      } else {
        const totalUsed = r.code === 'TOO_LARGE' && r.limit !== undefined && r.limit < BUNDLE_MAX_FILE_BYTES;
        const over = totalUsed ? ` (the bundle's ${BUNDLE_MAX_TOTAL_BYTES}-byte total is used up)` : '';
        sources.push({ ...rest, ok: false, error: { code: 'BUNDLE_FILE_REFUSED', message: `bundle file ${file} ${r.reason}${over}` } });
      }
    }
    // Older bundles have no version: leave it out rather than claiming it unknown.
    nodes.push({
      node: n.node,
      sources,
      ms: n.ms,
      cqlReachable: n.cqlReachable,
      virtualTables: n.virtualTables,
      ...(typeof n.version === 'string' ? { version: n.version } : {}),
      ...(isProduct(n.product) ? { product: n.product } : {}),
    });
  }
  return { manifest, nodes };
}

/** The version as the snapshot reads it from the same outputs (system.local / system.versions / nodetool version). */
function versionOf(n: NodeRaw): { version: string | null; product: 'cassandra' | 'scylla' | 'unknown' } {
  const { facts } = nodeFactsFromRaw(n.sources.filter((s) => s.ok && s.text !== undefined).map((s) => ({ name: s.name, text: s.text! })));
  return { version: facts.releaseVersion ?? n.version ?? null, product: facts.product ?? n.product ?? 'unknown' };
}

const isProduct = (p: unknown): p is 'cassandra' | 'scylla' | 'unknown' => p === 'cassandra' || p === 'scylla' || p === 'unknown';
