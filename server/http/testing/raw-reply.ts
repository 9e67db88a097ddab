/** An HTTP/1.1 response as it came over a raw socket: its status, headers (lower-cased names) and JSON body. */
export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * For tests: the final response in what a socket received until it closed (a `100 Continue` before it
 * is skipped); throws when its body is not JSON.
 */
export function parseRawReply(received: string): RawReply {
  const final = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
  const [head = '', body = ''] = final.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  try {
    return {
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: JSON.parse(body) as Record<string, unknown>,
    };
  } catch {
    throw new Error(`not a JSON reply: ${JSON.stringify(received)}`);
  }
}
