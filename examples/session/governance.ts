// gate() and authorize(): one governance check for emitted payloads and tool actions.
import assert from "node:assert/strict";
import { Branch, GateDenied, Session, ToolCallAction } from "@hooklens/runtime";

const session = new Session();
const branch = session.defaultBranch!;

// Written for tool actions; note that it also sees every emitted payload.
session.gate((subject) => !(subject instanceof ToolCallAction && subject.function === "deleteFile"));

const allowed = await branch.authorize(new ToolCallAction({ function: "readFile", branchId: branch.id }));
const denied = await branch.authorize(new ToolCallAction({ function: "deleteFile", branchId: branch.id }));
console.log({ allowed, denied }); // { allowed: true, denied: false }

// A denial is recorded directly: byType finds it and it is streamed and persisted, but subscribers never see it.
const [record] = session.observer.byType(GateDenied);
assert.equal((record!.data as ToolCallAction).function, "deleteFile");
assert.equal(record!.metadata["reason"], "the gate returned false");

// A branch outside any session has no observer, so it allows everything.
assert.equal(await new Branch().authorize(new ToolCallAction({ function: "deleteFile" })), true);
