/**
 * A node's exporter page on loopback for scrape tests: `/metrics` answers pages(n) on the n-th scrape (a real
 * recorded page, then the same page advanced by the test), anything else 404 unless `extra` answers it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseScrapeEndpoint, type ScrapeEndpoint } from '../../mcp-server/src/collect/metrics/scrape.js';

export interface PageNode {
  server: Server;
  endpoint: ScrapeEndpoint;
  /** Scrapes of /metrics answered so far. */
  hits: number;
  close(): Promise<void>;
}

export async function servePages(
  pages: (n: number) => string,
  opts: { host?: string; extra?: (url: string, res: ServerResponse) => boolean } = {},
): Promise<PageNode> {
  const host = opts.host ?? '127.0.0.1';
  const node = { hits: 0 } as PageNode;
  node.server = createServer((req, res) => {
    if (opts.extra?.(req.url ?? '', res)) return;
    if (req.url !== '/metrics') return void res.writeHead(404).end();
    node.hits++;
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(pages(node.hits));
  });
  await new Promise<void>((r) => node.server.listen(0, host, r));
  node.endpoint = parseScrapeEndpoint(`${host}:${(node.server.address() as AddressInfo).port}`);
  node.close = () => new Promise<void>((r) => node.server.close(() => r()));
  return node;
}
