// One marker for every hidden secret, whoever hid it: each way out is driven with the same secret
// and its output must show "[redacted]" where the secret was, and no other mask.
import { describe, expect, it } from "vitest";
import {
  Executor,
  InMemorySessionStateStore,
  LoggingHook,
  Message,
  REDACTED,
  REDACTION_MASK,
  getLogger,
  persistMessage,
  redact,
  redactError,
  redactText,
  redactValue,
  setSessionStateStore,
} from "@hooklens/runtime";
import { scrub } from "../../../runtime/src/store/postgres/postgresTarget.js";
import { captureLogs } from "../../helpers/captureLogs.js";
import { branchTools } from "../middleware/support.js";

const SECRET = "hunter22-0123456789";
const OTHER_MASKS = /\*{3}|<redacted>|REDACTED|\[hidden\]|\[secret\]/;

async function outputs(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  out["redactValue"] = JSON.stringify(redactValue({ password: SECRET }));
  out["redactText"] = redactText(`Authorization: Bearer ${SECRET}`);
  out["redactError"] = redactError(new Error(`token=${SECRET}`)).message;
  out["redact() with its own patterns"] = JSON.stringify(redact({ api_key: SECRET }, ["key"]));
  out["PostgreSQL error text"] = scrub(`login failed for ${SECRET}`, SECRET);

  const lines: string[] = [];
  const logger = { debug: () => undefined, info: (obj: unknown) => lines.push(JSON.stringify(obj)), warn: () => undefined, error: () => undefined };
  const executor = new Executor(branchTools({ name: "search", fn: () => "ok" }).tools, { hooks: [new LoggingHook({ logger, redact: ["query"] })] });
  await executor.callTool({ name: "search", arguments: { query: SECRET, apiKey: SECRET } }, executor.context());
  out["LoggingHook"] = lines.join("\n");

  const { logs, restore } = captureLogs();
  try {
    getLogger().warn({ apiKey: SECRET, detail: `password=${SECRET}` }, `failed with Bearer ${SECRET}`);
  } finally {
    restore();
  }
  out["runtime logger"] = JSON.stringify(logs);

  const store = new InMemorySessionStateStore();
  const previous = setSessionStateStore(store);
  try {
    await persistMessage({ sessionId: "s", message: new Message({ id: "m", role: "user", content: `key: ${SECRET}`, metadata: { secret: SECRET } }) });
  } finally {
    setSessionStateStore(previous);
  }
  out["session state message"] = JSON.stringify(store.messages.get("m"));
  return out;
}

describe("one redaction marker on every way out", () => {
  it('REDACTED (LoggingHook, redact()) is REDACTION_MASK, "[redacted]"', () => {
    expect(REDACTED).toBe(REDACTION_MASK);
    expect(REDACTION_MASK).toBe("[redacted]");
  });

  it("every way out hides the secret with [redacted] and with no other mask", async () => {
    for (const [way, text] of Object.entries(await outputs())) {
      expect(text, way).not.toContain(SECRET);
      expect(text, way).toContain(REDACTION_MASK);
      expect(text.replaceAll(REDACTION_MASK, ""), way).not.toMatch(OTHER_MASKS);
    }
  });
});
