/** Local real-Cassandra lab: 1 or 3 nodes on 127.0.0.1–3 from Maven Central jars. */
export { SUPPORTED_LAB_VERSIONS, type LabVersion } from './versions.js';
export type { LabNode, LabState, LabNodeStatus, LabStatus } from './types.js';
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
