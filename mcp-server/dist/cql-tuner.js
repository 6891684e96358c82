#!/usr/bin/env -S node --v8-pool-size=1
"use strict";

// <define:__CQL_TUNER_BUNDLES__>
var define_CQL_TUNER_BUNDLES_default = { main: { file: "cql-tuner-main.cjs", sha256: "5c2579bb689d045389f59effad6536d5f6c234cf94ec12f00b4ed2ae15db8a94" }, verbs: { logs: { file: "cql-tuner-logs.cjs", sha256: "e1c37f7bfcf50248240f76677ba4cf4b359fbd5bc73f531ab91a8849cfd08204" }, interpret: { file: "cql-tuner-interpret.cjs", sha256: "1f0d284909543fd60671901eacb97ee23c8b150093587f33d935687f262cd605" }, "review-schema": { file: "cql-tuner-review-schema.cjs", sha256: "5b413fd49604f674fb1e7bde32914ebdb4bc1a881e62ee8743648b4ea0390b63" } } };

// mcp-server/src/launch/code-cache.ts
var import_node_fs = require("node:fs");
var import_node_module = require("node:module");
var import_node_os = require("node:os");
var import_node_path = require("node:path");
var import_node_v8 = require("node:v8");
var import_node_vm = require("node:vm");
var WRITE_AFTER_MS = 1500;
var STALE_AFTER_MS = 7 * 24 * 3600 * 1e3;
var CACHE_NAME = /^[0-9a-f]{16}-\d+-\d+-v\d+\.\d+\.\d+-[a-z0-9_]+\.bin$/;
var debug = process.env.CQL_TUNER_CODE_CACHE_DEBUG === "1" ? (m) => process.stderr.write(`cql-tuner code cache: ${m}
`) : () => {
};
function privateCacheDir() {
  const base = process.env.CQL_TUNER_CODE_CACHE_DIR || (0, import_node_path.join)(process.env.XDG_CACHE_HOME || (0, import_node_path.join)((0, import_node_os.homedir)(), ".cache"), "cql-tuner", "code-cache");
  try {
    (0, import_node_fs.mkdirSync)(base, { recursive: true, mode: 448 });
    const st = (0, import_node_fs.lstatSync)(base);
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
    fd = (0, import_node_fs.openSync)(path, import_node_fs.constants.O_RDONLY | import_node_fs.constants.O_NOFOLLOW | import_node_fs.constants.O_NONBLOCK);
    const st = (0, import_node_fs.fstatSync)(fd);
    if (!st.isFile() || process.getuid && st.uid !== process.getuid() || (st.mode & 18) !== 0) return void 0;
    return (0, import_node_fs.readFileSync)(fd);
  } catch {
    return void 0;
  } finally {
    if (fd !== null) (0, import_node_fs.closeSync)(fd);
  }
}
function pickBundle(dir) {
  const verbs = define_CQL_TUNER_BUNDLES_default.verbs;
  const verb = process.argv[2];
  const own = verb !== void 0 && Object.hasOwn(verbs, verb) ? verbs[verb] : void 0;
  const chosen = own && (0, import_node_fs.statSync)((0, import_node_path.join)(dir, own.file), { throwIfNoEntry: false })?.isFile() ? own : define_CQL_TUNER_BUNDLES_default.main;
  return { bundle: (0, import_node_path.join)(dir, chosen.file), sha256: chosen.sha256, own: chosen !== define_CQL_TUNER_BUNDLES_default.main };
}
function run() {
  const { bundle, sha256, own } = pickBundle(__dirname);
  if (own) debug(`verb bundle ${bundle}`);
  if (own) (0, import_node_v8.setFlagsFromString)("--semi-space-growth-factor=1");
  if (own && process.argv[2] === "logs") (0, import_node_v8.setFlagsFromString)("--no-turbo-inlining");
  const source = (0, import_node_fs.readFileSync)(bundle, "utf8");
  const off = process.env.CQL_TUNER_CODE_CACHE === "0";
  const dir = off ? null : privateCacheDir();
  if (off) debug("off (CQL_TUNER_CODE_CACHE=0)");
  const st = (0, import_node_fs.statSync)(bundle);
  const key = `${sha256.slice(0, 16)}-${st.size}-${Math.floor(st.mtimeMs)}-${process.version}-${process.arch}`;
  const file = dir ? (0, import_node_path.join)(dir, `${key}.bin`) : null;
  const cachedData = file ? readPrivate(file) : void 0;
  const script = new import_node_vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}
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
        (0, import_node_fs.writeFileSync)(tmp, script.createCachedData(), { mode: 384 });
        (0, import_node_fs.renameSync)(tmp, file);
        debug(`wrote ${file}`);
        for (const name of (0, import_node_fs.readdirSync)(dir)) {
          const other = (0, import_node_path.join)(dir, name);
          if (!CACHE_NAME.test(name) || other === file) continue;
          const st2 = (0, import_node_fs.lstatSync)(other, { throwIfNoEntry: false });
          if (st2?.isFile() && (!process.getuid || st2.uid === process.getuid()) && Date.now() - st2.mtimeMs > STALE_AFTER_MS) (0, import_node_fs.unlinkSync)(other);
        }
      } catch (e) {
        debug(`not written (${e.message})`);
        try {
          (0, import_node_fs.unlinkSync)(tmp);
        } catch {
        }
      }
    };
    setTimeout(write, WRITE_AFTER_MS).unref();
    process.once("exit", write);
  }
  const module2 = { exports: {} };
  const fn = script.runInThisContext();
  fn.call(module2.exports, module2.exports, (0, import_node_module.createRequire)(bundle), module2, bundle, (0, import_node_path.dirname)(bundle));
}
run();
