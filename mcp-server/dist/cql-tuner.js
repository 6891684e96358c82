#!/usr/bin/env node

// <define:__CQL_TUNER_BUNDLES__>
var define_CQL_TUNER_BUNDLES_default = { main: { file: "cql-tuner-main.cjs", sha256: "ac39af26eabca437d786c597eaa8fdddfb3679f757e8360d3c2d217d007328eb" }, verbs: { logs: { file: "cql-tuner-logs.cjs", sha256: "bb9fd524e4dc7758542dd3b5e237e9792b3b550335ac7acacc3a8a2aa8977c0a" }, interpret: { file: "cql-tuner-interpret.cjs", sha256: "e0ba79894fc5cb703514e99add5c76d787b36722136d449f2cdbca8e117a58ac" }, "review-schema": { file: "cql-tuner-review-schema.cjs", sha256: "d66dbb0abb5cd1e68bb6b9a067d2474b793d86b4f7c0dd4c46d84aba9402d294" } } };

// mcp-server/src/launch/code-cache.ts
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";
var WRITE_AFTER_MS = 1500;
var STALE_AFTER_MS = 7 * 24 * 3600 * 1e3;
var CACHE_NAME = /^[0-9a-f]{16}-\d+-\d+-v\d+\.\d+\.\d+-[a-z0-9_]+\.bin$/;
var debug = process.env.CQL_TUNER_CODE_CACHE_DEBUG === "1" ? (m) => process.stderr.write(`cql-tuner code cache: ${m}
`) : () => {
};
function privateCacheDir() {
  const base = process.env.CQL_TUNER_CODE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "cql-tuner", "code-cache");
  try {
    mkdirSync(base, { recursive: true, mode: 448 });
    const st = lstatSync(base);
    if (!st.isDirectory() || process.getuid && st.uid !== process.getuid() || (st.mode & 18) !== 0) {
      debug(`unusable folder ${base} (not a directory of this user, or writable by others)`);
      return null;
    }
    return base;
  } catch (e) {
    debug(`unusable folder ${base} (${e.message})`);
    return null;
  }
}
function readPrivate(path) {
  let fd = null;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || process.getuid && st.uid !== process.getuid() || (st.mode & 18) !== 0) return void 0;
    return readFileSync(fd);
  } catch {
    return void 0;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
function pickBundle(dir) {
  const verbs = define_CQL_TUNER_BUNDLES_default.verbs;
  const verb = process.argv[2];
  const own = verb !== void 0 && Object.hasOwn(verbs, verb) ? verbs[verb] : void 0;
  const chosen = own && statSync(join(dir, own.file), { throwIfNoEntry: false })?.isFile() ? own : define_CQL_TUNER_BUNDLES_default.main;
  return { bundle: join(dir, chosen.file), sha256: chosen.sha256, own: chosen !== define_CQL_TUNER_BUNDLES_default.main };
}
function run() {
  const { bundle, sha256, own } = pickBundle(dirname(fileURLToPath(import.meta.url)));
  if (own) debug(`verb bundle ${bundle}`);
  if (own) setFlagsFromString("--semi-space-growth-factor=1");
  if (own && process.argv[2] === "logs") setFlagsFromString("--no-turbo-inlining");
  const source = readFileSync(bundle, "utf8");
  const off = process.env.CQL_TUNER_CODE_CACHE === "0";
  const dir = off ? null : privateCacheDir();
  if (off) debug("off (CQL_TUNER_CODE_CACHE=0)");
  const st = statSync(bundle);
  const key = `${sha256.slice(0, 16)}-${st.size}-${Math.floor(st.mtimeMs)}-${process.version}-${process.arch}`;
  const file = dir ? join(dir, `${key}.bin`) : null;
  const cachedData = file ? readPrivate(file) : void 0;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}
})`, {
    filename: bundle,
    ...cachedData ? { cachedData } : {}
  });
  const hit = cachedData !== void 0 && !script.cachedDataRejected;
  if (file) debug(hit ? `hit ${file}` : cachedData ? `rejected ${file}` : `miss ${file}`);
  if (file && !hit) {
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData(), { mode: 384 });
        renameSync(tmp, file);
        debug(`wrote ${file}`);
        for (const name of readdirSync(dir)) {
          const other = join(dir, name);
          if (!CACHE_NAME.test(name) || other === file) continue;
          const st2 = lstatSync(other, { throwIfNoEntry: false });
          if (st2?.isFile() && (!process.getuid || st2.uid === process.getuid()) && Date.now() - st2.mtimeMs > STALE_AFTER_MS) unlinkSync(other);
        }
      } catch (e) {
        debug(`not written (${e.message})`);
        try {
          unlinkSync(tmp);
        } catch {
        }
      }
    };
    setTimeout(write, WRITE_AFTER_MS).unref();
    process.once("exit", write);
  }
  const module = { exports: {} };
  const fn = script.runInThisContext();
  fn.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}
run();
