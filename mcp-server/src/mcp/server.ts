import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CQL_TUNER_VERSION } from '../version.js';
import { serverInstructions } from './instructions.js';
import { registerDiagnosisTools } from './tools/diagnosis.js';
import { registerLabTools } from './tools/lab.js';
import { registerLabIncidentTool } from './tools/lab-incident.js';
import { registerNodetoolTool } from './tools/nodetool.js';
import { registerSnapshotTools } from './tools/snapshot.js';
import { registerStorageTools } from './tools/storage.js';
import { registerScalingTools } from './tools/scaling.js';
import { registerSchemaTools } from './tools/schema.js';
import { registerMigrationTools } from './tools/migration.js';
import { registerConfigTools } from './tools/config.js';
import { registerStressTools } from './tools/stress.js';
import { registerMetricsTools } from './tools/metrics.js';

/** The MCP server with every tool registered; transports are attached by the caller (stdio entry, tests). */
export function createServer(): McpServer {
  const server = new McpServer(
    { name: 'cql-tuner', version: CQL_TUNER_VERSION },
    {
      capabilities: { tools: {}, logging: {} },
      instructions: serverInstructions(),
    },
  );
  registerNodetoolTool(server);
  registerLabTools(server);
  registerLabIncidentTool(server);
  registerSnapshotTools(server);
  registerStorageTools(server);
  registerDiagnosisTools(server);
  registerScalingTools(server);
  registerSchemaTools(server);
  registerMigrationTools(server);
  registerConfigTools(server);
  registerMetricsTools(server);
  registerStressTools(server);
  return server;
}
