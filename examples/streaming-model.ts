// Streams a reply from the offline scripted endpoint through a per-chunk stream handler.
import assert from "node:assert/strict";
import { HookRegistry, IModel, ScriptedEndpoint, type StreamHandler } from "@hooklens/runtime";

interface ChatChunk {
  choices: { delta: { content?: string }; finish_reason: string | null }[];
}

// Plain JSON chunks are keyed "Object". The handler gets exactly (null, chunkType, chunk, params);
// what it returns (unless null/undefined) replaces the chunk the caller sees.
const toText: StreamHandler = (_event, _chunkType, chunk) => {
  const choice = (chunk as ChatChunk).choices[0];
  return choice?.finish_reason ? `[${choice.finish_reason}]` : (choice?.delta.content ?? null);
};

const model = new IModel({
  endpoint: new ScriptedEndpoint({ script: ["Hooks run before, after and between chunks."] }),
  hookRegistry: new HookRegistry({ streamHandlers: { Object: toText } }),
});

const pieces: unknown[] = [];
for await (const piece of model.stream({ messages: [{ role: "user", content: "What do service hooks do?" }] })) {
  process.stdout.write(String(piece));
  pieces.push(piece);
}
process.stdout.write("\n");

assert.deepEqual(pieces, ["Hooks ", "run ", "before, ", "after ", "and ", "between ", "chunks.", "[stop]"]);
