// Types for scripts/build-options.mjs (plain JS so `npm run build` runs with bare node; the tests import it).
import type { BuildOptions } from 'esbuild';

export const root: string;
export const outfile: string;
export const mainBundle: string;
export const parseWorker: string;
/** {"type": "commonjs"} beside the entry, so Node starts it without its ES module loader. */
export const distPackageJson: string;
/** Verb → its own bundle; every other verb runs from the main bundle. */
export const verbBundles: Readonly<Record<string, string>>;
export const mainOptions: BuildOptions;
export const workerOptions: BuildOptions;
/** The options of a verb's own bundle: the main bundle's, with the verb's entry. */
export function verbOptions(verb: string): BuildOptions;
/** Builds every file in memory, the bundle first: path relative to root, and its text. */
export function buildAll(): Promise<{ path: string; text: string }[]>;
