// The OpenAI-compatible endpoint against a local stand-in server (so this runs offline).
// Point baseUrl at https://api.openai.com/v1 (the default) or any compatible server instead.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { EndpointHttpError, EventStatus, IModel, OpenAIChatEndpoint } from "@hooklens/runtime";

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (part: Buffer) => (body += part.toString()));
  req.on("end", () => {
    const payload = JSON.parse(body) as { model: string; stream?: boolean };
    if (payload.model === "missing") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "The model `missing` does not exist" } }));
    } else if (payload.stream) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const word of ["Hello", " from", " SSE"]) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: word } }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } })}\n\n`);
      res.end("data: [DONE]\n\n");
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: "Hello" } }], usage: { prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 } }));
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;

try {
  // The key comes from the option or $OPENAI_API_KEY; it is never shown in errors or logs.
  const endpoint = new OpenAIChatEndpoint({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "sk-example", model: "gpt-4o-mini", timeoutMs: 10_000 });
  const model = new IModel({ endpoint });
  const ask = { messages: [{ role: "user", content: "Say hello" }] };

  const call = await model.invoke(ask);
  assert.equal(call.status, EventStatus.COMPLETED);
  console.log("usage:", call.usage);

  let text = "";
  for await (const chunk of model.stream({ ...ask, stream_options: { include_usage: true } })) {
    text += (chunk as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? "";
  }
  assert.equal(text, "Hello from SSE");
  console.log("streamed:", text);

  const missing = await model.invoke({ ...ask, model: "missing" });
  assert.equal(missing.status, EventStatus.FAILED);
  assert.ok(missing.execution.error instanceof EndpointHttpError);
  console.log("404 →", (missing.execution.error as EndpointHttpError).status, (missing.execution.error as Error).message);
} finally {
  server.close();
}
