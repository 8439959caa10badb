// A minimal OTLP/HTTP trace receiver on 127.0.0.1 for tests: it keeps every request it is sent
// (JSON, optionally gzip), or with `answer: false` accepts connections and never replies (a
// collector that hangs).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: OtlpValue }>;
  events?: Array<{ name: string; attributes?: Array<{ key: string; value: OtlpValue }> }>;
  status?: { code?: number; message?: string };
}
export interface OtlpRequest {
  resourceSpans: Array<{ resource?: { attributes: Array<{ key: string; value: OtlpValue }> }; scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }>;
}

export interface Receiver {
  /** The traces URL (`…/v1/traces`). */
  url: string;
  requests: OtlpRequest[];
  paths: string[];
  contentTypes: string[];
  server: Server;
  /** Every span received so far. */
  spans(): OtlpSpan[];
  /** Resolves once a span called `name` arrived. */
  waitFor(name: string): Promise<OtlpSpan>;
  close(): Promise<void>;
}

export async function startReceiver(options: { answer?: boolean } = {}): Promise<Receiver> {
  const requests: OtlpRequest[] = [];
  const paths: string[] = [];
  const contentTypes: string[] = [];
  const waiting: Array<() => void> = [];
  const server = createServer((req, res) => {
    if (options.answer === false) return; // hold the request open, never answer
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body);
      paths.push(`${req.method} ${req.url}`);
      contentTypes.push(String(req.headers["content-type"]));
      requests.push(JSON.parse(body.toString("utf8")) as OtlpRequest);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const spans = (): OtlpSpan[] => requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    paths,
    contentTypes,
    server,
    spans,
    async waitFor(name) {
      for (;;) {
        const found = spans().find((s) => s.name === name);
        if (found) return found;
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An attribute's value as a plain string, number or boolean. */
export function attribute(attributes: ReadonlyArray<{ key: string; value: OtlpValue }> | undefined, key: string): string | number | boolean | undefined {
  const value = attributes?.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue;
}
