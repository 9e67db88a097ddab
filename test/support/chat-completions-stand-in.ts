import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in answers the next requests. */
export type StandInBehaviour =
  | { kind: 'phrasings'; lines: string[] }
  | { kind: 'slow'; ms: number; lines: string[] }
  | { kind: 'content'; content: string }
  | { kind: 'status'; status: number }
  /** A 307 to another path of its own, where a request is counted too. */
  | { kind: 'redirect' }
  /** An answer of `bytes` bytes, sent in pieces without a Content-Length. */
  | { kind: 'flood'; bytes: number };

export interface SeenRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
  };
}

export interface ChatCompletionsStandIn {
  /** The API base to configure (--rewrite-url): requests go to `${url}/chat/completions`. */
  url: string;
  requests: SeenRequest[];
  behave(b: StandInBehaviour): void;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat-completions endpoint on 127.0.0.1, port 0: a stand-in for the hosted or
 * local LLM a deployment configures (none can run here). It speaks the real shapes: a POST of
 * {model, messages}, answered {id, object: "chat.completion", choices: [{message: {role, content}}]}.
 */
export async function startChatCompletionsStandIn(): Promise<ChatCompletionsStandIn> {
  let behaviour: StandInBehaviour = { kind: 'phrasings', lines: [] };
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: SeenRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SeenRequest['body'];
      } catch {
        // Counted all the same: the test reads what was sent.
      }
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const b = behaviour;
      if (b.kind === 'redirect') {
        res.writeHead(307, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
        return;
      }
      if (b.kind === 'flood') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const piece = Buffer.alloc(16 * 1024, 'a');
        let left = b.bytes;
        const more = () => {
          while (left > 0 && !res.destroyed) {
            left -= piece.length;
            if (!res.write(piece)) return void res.once('drain', more);
          }
          if (!res.destroyed) res.end();
        };
        more();
        return;
      }
      if (b.kind === 'status') {
        res.writeHead(b.status, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
        return;
      }
      const content =
        b.kind === 'content' ? b.content : b.lines.map((l) => JSON.stringify({ search: l })).join('\n');
      const answer = JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? '',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
      });
      const send = () => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      };
      if (b.kind === 'slow') setTimeout(send, b.ms).unref();
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    behave: (b) => (behaviour = b),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
