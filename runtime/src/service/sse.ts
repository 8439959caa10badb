import { describeValue } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";

/** One server-sent event: its `event:` name (default "message") and its joined `data:` lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Parses a byte stream as server-sent events (the WHATWG format: LF, CR or CRLF line ends,
 * `:` comments, multi-line `data:`). Events without data are skipped, as browsers do.
 */
export async function* parseServerSentEvents(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent, void, undefined> {
  const where = "parseServerSentEvents(chunks)";
  if (typeof (chunks as Partial<AsyncIterable<Uint8Array>> | null)?.[Symbol.asyncIterator] !== "function") {
    throw new InvalidValueError(`${where}: chunks must be an async iterable of Uint8Array (a response body), got ${describeValue(chunks)}`);
  }
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let skipLeadingLf = false;

  function* dispatchLine(line: string): Generator<ServerSentEvent, void, undefined> {
    if (line === "") {
      if (data.length > 0) yield { event: event || "message", data: data.join("\n") };
      data = [];
      event = "";
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  }

  for await (const bytes of chunks) {
    if (!(bytes instanceof Uint8Array)) throw new InvalidValueError(`${where}: each chunk must be a Uint8Array, got ${describeValue(bytes)}`);
    buffer += decoder.decode(bytes, { stream: true });
    if (skipLeadingLf && buffer.startsWith("\n")) buffer = buffer.slice(1);
    skipLeadingLf = false;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      yield* dispatchLine(buffer.slice(start, i));
      if (ch === 13) {
        if (i + 1 < buffer.length) {
          if (buffer.charCodeAt(i + 1) === 10) i++;
        } else {
          skipLeadingLf = true;
        }
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  }
  buffer += decoder.decode();
  // A final event without its closing blank line is dispatched, not lost.
  if (buffer !== "") yield* dispatchLine(buffer);
  yield* dispatchLine("");
}
