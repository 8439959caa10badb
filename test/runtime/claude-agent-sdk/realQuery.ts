// One real query() of the installed Claude Agent SDK: its bundled Claude Code binary, started with
// ANTHROPIC_BASE_URL pointing at a scripted Messages API on 127.0.0.1, a fresh working directory and
// a fresh config folder (the binary writes its transcripts there). No network, nothing downloaded.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { query, type Options, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { observeQuery } from "@hooklens/runtime/claude-agent-sdk";
import { testTempDir } from "../../helpers/tempDir.js";
import { startScriptedMessagesApi, type Script } from "./scriptedMessagesApi.js";

export interface QueryRun {
  readonly messages: SDKMessage[];
  /** The tool results the model was sent back. */
  readonly toolResults: Array<{ content?: unknown; is_error?: boolean }>;
}

/** The run of `prompt` with `options` (as withHookLens returned them) against `script`; the server is stopped whatever happens. */
export async function runQuery(script: Script, options: Options, prompt = "run the scripted tool"): Promise<QueryRun> {
  const api = await startScriptedMessagesApi(script);
  const dir = testTempDir("hooklens-claude-");
  const cwd = join(dir, "work");
  mkdirSync(cwd);
  const env = { ...process.env, ANTHROPIC_BASE_URL: api.baseUrl, ANTHROPIC_API_KEY: "test-key-not-used", CLAUDE_CONFIG_DIR: join(dir, "config") } as Record<string, string>;
  const messages: SDKMessage[] = [];
  try {
    const q = observeQuery(query({ prompt, options: { ...options, cwd, env } }), options);
    for await (const message of q) messages.push(message);
    return { messages, toolResults: api.toolResults as QueryRun["toolResults"] };
  } finally {
    await api.close();
  }
}
