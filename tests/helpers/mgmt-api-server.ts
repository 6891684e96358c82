/**
 * A small local stand-in for the k8ssandra Management API: serves recorded answers (tests/fixtures/mgmt-api) by exact
 * path over http or https (optionally asking for a client certificate), and records every request it saw so tests can
 * assert that only allow-listed GETs were made.
 */
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface FakeMgmtApi {
  url: string;
  requests: { method: string; path: string; clientCert: boolean }[];
  close(): Promise<void>;
}

export type Answer = string | { status: number; body: string } | ((res: ServerResponse) => void);

export async function startFakeMgmtApi(
  answers: Record<string, Answer>,
  tls?: { key: string; cert: string; ca?: string; requestCert?: boolean },
): Promise<FakeMgmtApi> {
  const requests: FakeMgmtApi['requests'] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const sock = req.socket as { getPeerCertificate?: () => { subject?: unknown } };
    const clientCert = !!sock.getPeerCertificate && !!sock.getPeerCertificate()?.subject;
    requests.push({ method: req.method ?? '?', path: req.url ?? '', clientCert });
    const a = Object.hasOwn(answers, req.url ?? '') ? answers[req.url ?? ''] : undefined;
    if (a === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof a === 'function') return a(res);
    const { status, body } = typeof a === 'string' ? { status: 200, body: a } : a;
    res.writeHead(status, { 'content-type': body.startsWith('{') || body.startsWith('[') ? 'application/json' : 'text/plain' }).end(body);
  };
  const server: Server = tls
    ? createHttps(
        { key: tls.key, cert: tls.cert, ...(tls.ca ? { ca: tls.ca } : {}), requestCert: !!tls.requestCert, rejectUnauthorized: !!tls.requestCert },
        handler,
      )
    : createHttp(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
