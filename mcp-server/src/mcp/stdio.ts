import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './server.js';

/** Serves MCP on stdin/stdout. Nothing else may write to stdout: logs go to stderr. */
export async function serveStdio(): Promise<void> {
  // A stray console.log from any module would corrupt the JSON-RPC stream; send it to stderr instead.
  console.log = (...args: unknown[]) => console.error(...args);
  const server = createServer();
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const close = () => {
    void server.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', close);
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}
