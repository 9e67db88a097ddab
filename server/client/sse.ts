/** One frame of a thorough Context stream: `stage` events while it works, then one `context`. */
export interface StreamFrame {
  event: string;
  data: unknown;
}

/**
 * Parses a `text/event-stream` body into frames (event name + JSON data). Written against the
 * WHATWG stream API so it runs in Node and in the renderer alike; comments and `id:` lines are ignored.
 */
export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  let finished = false;
  const flush = (): StreamFrame | null => {
    if (data.length === 0) {
      event = 'message';
      return null;
    }
    const raw = data.join('\n');
    const frame: StreamFrame = { event, data: safeJson(raw) };
    event = 'message';
    data = [];
    return frame;
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A lone CR at the end of a chunk may be the first half of CRLF: wait for the next chunk.
        if (!done && nl === buffer.length - 1 && buffer[nl] === '\r') break;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          const frame = flush();
          if (frame) yield frame;
        } else if (line.startsWith(':')) {
          continue;
        } else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
      }
      if (done) {
        finished = true;
        const frame = flush();
        if (frame) yield frame;
        return;
      }
    }
  } finally {
    // The consumer stopped early: close the connection rather than leave it streaming.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
