/**
 * The Management API answers cql-tuner reads: exact, read-only GET paths from its OpenAPI spec
 * (k8ssandra/management-api-for-apache-cassandra v0.1.125, commit 7a2b61f8, management-api-server/doc/openapi.json).
 * Nothing else is ever requested: every POST/PUT/DELETE there changes the node (drain, decommission, repair …), and no
 * path is built from cluster text.
 */
export const MGMT_API_GETS = {
  endpoints: '/api/v0/metadata/endpoints',
  release: '/api/v0/metadata/versions/release',
  schemaVersions: '/api/v1/ops/node/schema/versions',
  compactions: '/api/v1/ops/tables/compactions',
} as const;

export type MgmtApiGet = keyof typeof MGMT_API_GETS;
export const MGMT_API_GET_NAMES = Object.keys(MGMT_API_GETS) as MgmtApiGet[];

/** cass-operator v1.32.0 DefaultMgmtApiPort (apis/cassandra/v1beta1/cassandradatacenter_types.go), port "mgmt-api-http". */
export const DEFAULT_MGMT_API_PORT = 8080;
