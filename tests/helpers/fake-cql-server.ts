/**
 * A fake CQL server on loopback: just enough of the native protocol (v4 framing) for a driver to connect and
 * be asked for a password. OPTIONS → SUPPORTED; STARTUP → AUTHENTICATE (PasswordAuthenticator); AUTH_RESPONSE
 * → recorded, then "bad credentials". A client offering protocol v5+ is told to use v4, as Cassandra 3.x does.
 * It never lets anyone in: what matters is whether a password arrives.
 */
import { createServer, type Server, type Socket } from 'node:net';

const OP = { ERROR: 0x00, STARTUP: 0x01, READY: 0x02, AUTHENTICATE: 0x03, OPTIONS: 0x05, SUPPORTED: 0x06, AUTH_RESPONSE: 0x0f } as const;

export interface AuthAttempt {
  username: string;
  password: string;
  /** Raw token bytes as sent (user and password NUL-separated). */
  token: Buffer;
}

export interface FakeCqlServer {
  host: string;
  port: number;
  /** Connections that reached STARTUP. */
  startups: number;
  /** Every AUTH_RESPONSE received. */
  attempts: AuthAttempt[];
  /** Did any byte sequence received contain this text (the password, say) anywhere? */
  received(text: string): boolean;
  close(): Promise<void>;
}

function str(s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b]);
}

function frame(stream: number, opcode: number, body: Buffer): Buffer {
  const h = Buffer.alloc(9);
  h.writeUInt8(0x84, 0);
  h.writeUInt8(0, 1);
  h.writeInt16BE(stream, 2);
  h.writeUInt8(opcode, 4);
  h.writeUInt32BE(body.length, 5);
  return Buffer.concat([h, body]);
}

function error(stream: number, code: number, message: string): Buffer {
  const c = Buffer.alloc(4);
  c.writeInt32BE(code);
  return frame(stream, OP.ERROR, Buffer.concat([c, str(message)]));
}

export async function startFakeCqlServer(opts: { host?: string; authenticator?: string } = {}): Promise<FakeCqlServer> {
  const host = opts.host ?? '127.0.0.1';
  const raw: Buffer[] = [];
  const sockets = new Set<Socket>();
  const state = { startups: 0, attempts: [] as AuthAttempt[] };
  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    let buf = Buffer.alloc(0);
    sock.on('data', (chunk: Buffer) => {
      raw.push(chunk);
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 9) {
        const version = buf.readUInt8(0) & 0x7f;
        const stream = buf.readInt16BE(2);
        const opcode = buf.readUInt8(4);
        const len = buf.readUInt32BE(5);
        if (buf.length < 9 + len) break;
        const body = buf.subarray(9, 9 + len);
        buf = buf.subarray(9 + len);
        if (version !== 4) {
          sock.write(error(stream, 0x000a, `Invalid or unsupported protocol version (${version}); supported versions are (3/v3, 4/v4)`));
          continue;
        }
        if (opcode === OP.OPTIONS) sock.write(frame(stream, OP.SUPPORTED, Buffer.from([0, 0])));
        else if (opcode === OP.STARTUP) {
          state.startups++;
          sock.write(frame(stream, OP.AUTHENTICATE, str(opts.authenticator ?? 'org.apache.cassandra.auth.PasswordAuthenticator')));
        } else if (opcode === OP.AUTH_RESPONSE) {
          const tlen = body.readInt32BE(0);
          const token = tlen >= 0 ? Buffer.from(body.subarray(4, 4 + tlen)) : Buffer.alloc(0);
          const [, username = '', password = ''] = token.toString('utf8').split('\0');
          state.attempts.push({ username, password, token });
          sock.write(error(stream, 0x0100, 'Provided username and/or password are incorrect (fake server)'));
        } else sock.write(error(stream, 0x000a, `fake server: opcode ${opcode} not supported`));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    host,
    port,
    get startups() {
      return state.startups;
    },
    get attempts() {
      return state.attempts;
    },
    received: (text: string) => Buffer.concat(raw).includes(Buffer.from(text, 'utf8')),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
