import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolve } from 'node:path';

export const BUNDLE = resolve(import.meta.dirname, '../../mcp-server/dist/cql-tuner.js');

/** A real MCP client talking to the built bundle over stdio, as Claude Code does. */
export async function connectBundle(env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE, 'mcp'],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const client = new Client({ name: 'cql-tuner-tests', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

/** The same server in this process over a linked in-memory transport: quick, and it sees this process's env. */
export async function connectInProcess(name = 'cql-tuner-tests'): Promise<Client> {
  const { createServer } = await import('../../mcp-server/src/mcp/server.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const server = createServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name, version: '0' });
  await client.connect(b);
  return client;
}
