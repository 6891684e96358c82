import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_STDIO_MESSAGE_BYTES, MAX_TOOL_TEXT_CHARS } from './limits.js';
import { createServer } from './server.js';

const log = (m: string) => process.stderr.write(`cql-tuner: ${m}\n`);

/** Serves MCP on stdin/stdout. Nothing else may write to stdout: logs go to stderr. */
export async function serveStdio(): Promise<void> {
  // A stray console.log from any module would corrupt the JSON-RPC stream; send it to stderr instead.
  // eslint-disable-next-line no-console -- the one place console is touched: redirecting it is the point
  console.log = (...args: unknown[]) => console.error(...args);
  const server = createServer();
  const transport = new BoundedStdioTransport();
  server.server.onerror = (e) => log(`MCP error: ${e.message}`);
  await server.connect(transport);
  const close = (why: string) => {
    log(`stopping: ${why}`);
    void server.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', () => close('stdin closed by the client'));
  process.on('SIGTERM', () => close('SIGTERM'));
  process.on('SIGINT', () => close('SIGINT'));
}

/** Bytes kept from the start and the end of an oversize message, to find its id and method. */
const EDGE_BYTES = 4096;

interface Oversize {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

/**
 * Newline-delimited JSON-RPC on stdio, like the SDK's StdioServerTransport, but a message longer than maxBytes
 * does not end the server (the SDK's ReadBuffer throws at 10 MiB and the transport closes, silently): its bytes
 * are skipped up to its newline, its id is looked for at its start and end, and it is answered with an error
 * (a tool error for tools/call) and logged on stderr. Lines are also gathered as chunks, not re-concatenated
 * and re-scanned at every chunk (quadratic on a large message).
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private lineBytes = 0;
  private oversize: Oversize | null = null;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxBytes = MAX_STDIO_MESSAGE_BYTES,
  ) {}

  // eslint-disable-next-line @typescript-eslint/require-await -- Transport.start: a throw must reach the SDK as a rejection
  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private readonly onStreamError = (e: Error) => this.onerror?.(e);

  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(10, start);
      this.take(buf.subarray(start, nl < 0 ? buf.length : nl));
      if (nl < 0) break;
      this.endLine();
      start = nl + 1;
    }
  };

  private take(part: Buffer): void {
    if (part.length === 0) return;
    const o = this.oversize;
    if (o) {
      o.bytes += part.length;
      o.tail = part.length >= EDGE_BYTES ? Buffer.from(part.subarray(part.length - EDGE_BYTES)) : Buffer.concat([o.tail, part]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.lineBytes + part.length > this.maxBytes) {
      const all = Buffer.concat([...this.chunks, part]);
      this.oversize = { bytes: all.length, head: Buffer.from(all.subarray(0, EDGE_BYTES)), tail: Buffer.from(all.subarray(-EDGE_BYTES)) };
      this.chunks = [];
      this.lineBytes = 0;
      return;
    }
    this.chunks.push(part);
    this.lineBytes += part.length;
  }

  private endLine(): void {
    if (this.oversize) {
      const o = this.oversize;
      this.oversize = null;
      void this.refuse(o);
      return;
    }
    let line = Buffer.concat(this.chunks, this.lineBytes).toString('utf8');
    this.chunks = [];
    this.lineBytes = 0;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (e) {
      this.onerror?.(new Error(`unreadable JSON-RPC message of ${line.length} characters: ${(e as Error).message.slice(0, 200)}`));
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers an oversize message when its id can be found (a notification or an unknown id gets no answer). */
  private async refuse(o: Oversize): Promise<void> {
    const head = o.head.toString('utf8');
    const tail = o.tail.toString('utf8');
    const id = oversizeId(head, tail);
    const isToolCall = /^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*(?:"[^"]{0,200}"|-?\d+)\s*,\s*)*"method"\s*:\s*"tools\/call"/.test(head);
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    const what = `a request of ${mib(o.bytes)} is over the ${mib(this.maxBytes)} limit of one message`;
    const limit = `${MAX_TOOL_TEXT_CHARS / 1024 / 1024} MiB`;
    const fix = `Give at most ${limit} of text (cut the paste to the part that matters), or save it to a file and pass its path.`;
    log(`refused ${what}${id === undefined ? ' (no request id found: not answered)' : ` (id ${JSON.stringify(id)})`}`);
    if (id === undefined) return;
    const reply: JSONRPCMessage = isToolCall
      ? { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `[REQUEST_TOO_LARGE] ${what}\nFix: ${fix}` }], isError: true } }
      : { jsonrpc: '2.0', id, error: { code: -32600, message: `${what}. ${fix}` } };
    await this.send(reply);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- Transport.close: a throw from onclose must reach the SDK as a rejection
  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.oversize = null;
    this.onclose?.();
  }
}

/**
 * The id of a JSON-RPC request from the first and last bytes of its line: first member(s) (`{"jsonrpc":"2.0","id":7,…`)
 * or last (`…,"jsonrpc":"2.0","id":7}`, as the SDK's clients write it). Undefined when neither place holds it.
 */
export function oversizeId(head: string, tail: string): string | number | undefined {
  const value = String.raw`(-?\d{1,16}|"(?:[^"\\\n]|\\.){0,200}")`;
  const atStart = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"]{0,200}"\s*,\s*){0,2}"id"\s*:\s*${value}`).exec(head);
  const atEnd = new RegExp(String.raw`"id"\s*:\s*${value}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`).exec(tail);
  const raw = atStart?.[1] ?? atEnd?.[1];
  if (raw === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'number' || typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}
