import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCError,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';

/** How many bytes of each edge of an over-long line are kept to read its id from. */
const edgeBytes = 512;

const jsonRpcId = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** An id among the first members, after string-valued `jsonrpc` / `method`: {"jsonrpc":"2.0","id":7,… */
const idFirst = new RegExp(
  String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,)*\s*"id"\s*:\s*` +
    jsonRpcId +
    String.raw`\s*[,}]`,
);
/** An id as the last member of the top-level object: …,"jsonrpc":"2.0","id":7} (one closing brace). */
const idLast = new RegExp(String.raw`[{,]\s*"id"\s*:\s*` + jsonRpcId + String.raw`\s*\}\s*$`);

/** The id of a request read from the edges of its line, or null. */
export function idAtEdges(head: string, end: string): string | number | null {
  const found = idFirst.exec(head) ?? idLast.exec(end.replace(/\r$/, ''));
  if (!found) return null;
  try {
    const id = JSON.parse(found[1]!) as unknown;
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
  } catch {
    return null;
  }
}

/**
 * Newline-delimited JSON-RPC over a pair of streams, hardened for stdio: a line that is not JSON-RPC,
 * or is longer than `maxLineBytes`, is dropped with a note on `log` (stderr) and answered with the
 * JSON-RPC error the spec names for it (-32700 parse error, -32600 invalid request; its id when one can
 * be read, from an over-long line's edges too, else null), so a client waiting on it is told instead of waiting forever; the transport keeps
 * going. The SDK's StdioServerTransport closes itself on an over-long line; a bridge must not die.
 * Nothing but serialized messages is ever written to `output`. When the input ends, requests already
 * read are still answered before the transport closes (`echo REQUEST | mnemo mcp` gets its answer; a
 * write answered by nothing would be retried and written twice), for at most `drainMs`.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** The first and the last bytes of the over-long line being dropped. */
  private overLong: { head: Buffer; end: Buffer } | undefined;
  /** Whether the line being read is over the limit, so dropped as it comes. */
  private get discarding(): boolean {
    return this.overLong !== undefined;
  }
  private closed = false;
  private ended = false;
  /** The line the message being delivered came in, while it is delivered (tool-call-params.ts). */
  currentLine: string | undefined;
  /** Ids of requests read and not yet answered. */
  private readonly pending = new Set<string | number>();
  private drainTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly log: (line: string) => void,
    private readonly maxLineBytes = 16 * 1024 * 1024,
    private readonly drainMs = 60_000,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a)) {
      const tail = buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
      if (!this.discarding && this.size + tail.length > this.maxLineBytes) this.startDiscarding(tail);
      else if (this.discarding) this.keepEnd(tail);
      if (this.discarding) {
        this.refuseOverLong();
        continue;
      }
      this.chunks.push(tail);
      const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
      this.chunks = [];
      this.size = 0;
      this.handleLine(line);
    }
    if (buf.length === 0) return;
    if (this.discarding) return this.keepEnd(buf);
    if (this.size + buf.length > this.maxLineBytes) return this.startDiscarding(buf);
    this.size += buf.length;
    this.chunks.push(buf);
  };

  /** The line read so far and `more` are over the limit: keep its edges only, drop the rest. */
  private startDiscarding(more: Buffer): void {
    this.log(`mcp: dropped an input line longer than ${this.maxLineBytes} bytes`);
    const read = Buffer.concat([...this.chunks, more]);
    this.overLong = { head: read.subarray(0, edgeBytes), end: Buffer.alloc(0) };
    this.keepEnd(read.subarray(Math.max(edgeBytes, read.length - edgeBytes)));
    this.chunks = [];
    this.size = 0;
  }

  /** Keeps the last bytes of an over-long line, where a client may have written its id. */
  private keepEnd(bytes: Buffer): void {
    if (!this.overLong) return;
    const end = Buffer.concat([this.overLong.end, bytes]);
    this.overLong.end = end.subarray(Math.max(0, end.length - edgeBytes));
  }

  /**
   * An over-long line is not parsed, but the request it carried is still owed an answer: with the id
   * read from the line's start or end (as JSON-RPC clients write it: first after `jsonrpc`, or last, as
   * the TypeScript SDK does), so that the client's call fails at once with the reason rather than
   * timing out a minute later; null when neither edge names it.
   */
  private refuseOverLong(): void {
    const edges = this.overLong;
    this.overLong = undefined;
    const id = edges ? idAtEdges(edges.head.toString('utf8'), edges.end.toString('utf8')) : null;
    this.refuse(id, -32700, `Parse error: a line longer than ${this.maxLineBytes} bytes is not read`);
  }

  private readonly onEnd = () => {
    // The input ended inside an over-long line: that line has ended too.
    if (this.discarding) this.refuseOverLong();
    this.ended = true;
    if (this.pending.size === 0) return void this.close();
    // Not unref'd: an empty event loop would end the process with the bridge's promise unsettled.
    this.drainTimer = setTimeout(() => {
      this.log(`mcp: input ended; ${this.pending.size} request(s) still unanswered after ${this.drainMs} ms`);
      void this.close();
    }, this.drainMs);
  };

  /** A request needs no more answer (answered, cancelled, or failed unanswered). */
  private settle(id: string | number): void {
    this.pending.delete(id);
    if (this.ended && this.pending.size === 0) void this.close();
  }
  private readonly onStreamError = (e: Error) => this.onerror?.(e);

  private handleLine(line: string): void {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.log('mcp: ignored an input line that is not JSON');
      return this.refuse(null, -32700, 'Parse error: the line is not JSON');
    }
    // A batch (which MCP no longer has): each request in it told, by its id, so no client waits on one.
    if (Array.isArray(json)) {
      this.log('mcp: refused a JSON-RPC batch');
      const ids = json
        .map((m) => (m as { id?: unknown } | null)?.id)
        .filter((id): id is string | number => typeof id === 'string' || typeof id === 'number');
      const why = 'Invalid Request: batches are not supported; send each message on a line of its own';
      if (ids.length === 0) return this.refuse(null, -32600, why);
      for (const id of ids) this.refuse(id, -32600, why);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.log('mcp: ignored an input line that is not a JSON-RPC message');
      const id = (json as { id?: unknown } | null)?.id;
      const known = typeof id === 'string' || typeof id === 'number' ? id : null;
      return this.refuse(known, -32600, 'Invalid Request: not a JSON-RPC 2.0 request');
    }
    const message = parsed.data;
    if (isJSONRPCRequest(message)) this.pending.add(message.id);
    try {
      this.currentLine = line;
      this.onmessage?.(message);
    } catch (e) {
      if (isJSONRPCRequest(message)) this.settle(message.id);
      this.onerror?.(e as Error);
    } finally {
      this.currentLine = undefined;
    }
    // A cancelled request is never answered (MCP): nothing is owed for it any more.
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.settle(id);
    }
  }

  /** A JSON-RPC error for a line that never became a message (so nothing else will answer it). */
  private refuse(id: string | number | null, code: number, message: string): void {
    if (this.closed) return;
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const line = `${JSON.stringify(message)}\n`;
    if (!this.output.write(line)) await new Promise<void>((r) => this.output.once('drain', () => r()));
    if ((isJSONRPCResponse(message) || isJSONRPCError(message)) && message.id !== undefined)
      this.settle(message.id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.drainTimer);
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onStreamError);
    this.onclose?.();
  }
}
