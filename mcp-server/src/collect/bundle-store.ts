import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { nodeFactsFromRaw } from '../core/facts/from-raw.js';
import type { NodeRaw, RawSourceResult, SweepNode } from './sweep.js';

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

const fileNameFor = (source: string) => source.replace(/^cql:/, 'cql-').replace(/^nodetool:/, 'nodetool-').replace(/[^A-Za-z0-9_.-]/g, '_') + (source.startsWith('cql:') ? '.tsv' : '.txt');

export async function writeBundle(dir: string, meta: Omit<BundleManifest, 'format' | 'nodes'>, nodes: NodeRaw[]): Promise<string> {
  const finalDir = resolve(dir);
  const existing = await stat(finalDir).catch(() => null);
  if (existing) {
    const entries = existing.isDirectory() ? await readdir(finalDir) : ['(a file)'];
    if (entries.length) {
      throw Object.assign(new Error(`bundle directory ${finalDir} already exists and is not empty`), { code: 'BUNDLE_EXISTS', fix: 'Choose a new directory name; bundles are never overwritten.' });
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
      throw Object.assign(new Error(`no space left on the device holding ${finalDir} (ENOSPC): the bundle was not written (its partial copy was removed)`), {
        code: 'DISK_FULL',
        fix: 'Free space there or choose a bundle directory on a file system with room, then collect again.',
      });
    }
    throw e;
  }
}

export async function readBundle(dir: string): Promise<{ manifest: BundleManifest; nodes: NodeRaw[] }> {
  const root = resolve(dir);
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as BundleManifest;
  } catch (e) {
    throw Object.assign(new Error(`${root} is not a cql-tuner bundle: ${(e as Error).message}`), { code: 'NOT_A_BUNDLE', fix: 'Point at a folder written by `cql-tuner snapshot --bundle DIR`.' });
  }
  if (manifest.format !== 'cql-tuner-bundle/1' || !Array.isArray(manifest.nodes)) {
    throw Object.assign(new Error(`${root}/manifest.json has an unknown format ${JSON.stringify(manifest.format)}`), { code: 'NOT_A_BUNDLE', fix: 'Use a bundle written by this version of cql-tuner.' });
  }
  const nodes: NodeRaw[] = [];
  for (const n of manifest.nodes) {
    const sources: RawSourceResult[] = [];
    for (const s of n.sources) {
      const { file, ...rest } = s;
      let text: string | undefined;
      if (file) {
        const path = resolve(root, file);
        // A manifest must not point outside its own bundle.
        if (!path.startsWith(`${root}/`)) throw Object.assign(new Error(`manifest names a file outside the bundle: ${file}`), { code: 'NOT_A_BUNDLE', fix: 'The bundle was tampered with; collect a new one.' });
        text = await readFile(path, 'utf8').catch(() => undefined);
      }
      sources.push(text === undefined ? rest : { ...rest, text });
    }
    // Older bundles have no version: leave it out rather than claiming it unknown.
    nodes.push({ node: n.node, sources, ms: n.ms, cqlReachable: n.cqlReachable, virtualTables: n.virtualTables, ...(typeof n.version === 'string' ? { version: n.version } : {}), ...(isProduct(n.product) ? { product: n.product } : {}) });
  }
  return { manifest, nodes };
}

/** The version as the snapshot reads it from the same outputs (system.local / system.versions / nodetool version). */
function versionOf(n: NodeRaw): { version: string | null; product: 'cassandra' | 'scylla' | 'unknown' } {
  const { facts } = nodeFactsFromRaw(n.sources.filter((s) => s.ok && s.text !== undefined).map((s) => ({ name: s.name, text: s.text! })));
  return { version: facts.releaseVersion ?? n.version ?? null, product: facts.product ?? n.product ?? 'unknown' };
}

const isProduct = (p: unknown): p is 'cassandra' | 'scylla' | 'unknown' => p === 'cassandra' || p === 'scylla' || p === 'unknown';
