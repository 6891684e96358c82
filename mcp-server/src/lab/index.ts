/** Local real-Cassandra lab: 1 or 3 nodes on 127.0.0.1–3 (or CQL_TUNER_LAB_NET) from Maven Central jars, open or secured. */
export { SUPPORTED_LAB_VERSIONS, type LabVersion } from './versions.js';
export type { LabNode, LabState, LabNodeStatus, LabStatus, LabSecurityState } from './types.js';
export { LAB_NET_VAR, labNet } from './paths.js';
export { LabError, type LabErrorCode } from './errors.js';
export {
  startLab,
  labStatus,
  stopLab,
  labNodetoolArgv,
  type StartLabOptions,
  type StopLabOptions,
  DEFAULT_NODE_TIMEOUT_MS,
  DEFAULT_STOP_TIMEOUT_MS,
} from './lab.js';
export { resolveCassandraJars, type ResolvedJars } from './resolve.js';
export { labPaths } from './paths.js';
export { readLabState } from './state.js';
