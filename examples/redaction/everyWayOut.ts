/**
 * What the runtime masks before a signal, a log line or an error leaves the program, and how to
 * add a key name of your own. Runs offline: an in-memory store stands in for the database.
 */
import assert from "node:assert/strict";
import { configureRedaction, HookSignal, InMemorySignalStore, isSecretKey, redactText, redactValue, Session } from "@hooklens/runtime";

// A signal carrying secrets in several shapes: a key name, a header pair, a URL, a command line.
const session = new Session();
const store = new InMemorySignalStore();
session.observer.bindDbPersistence(session.id, store);
await session.emit(
  new HookSignal("tool.pre", {
    toolName: "fetch",
    apiKey: "sk-live-0123456789abcdefghij",
    headers: [["Authorization", "Bearer eyJhbGciOi.payload.sig"]],
    url: "https://deploy:hunter22@registry.example.com/v2/?access_token=abc123",
    command: "mysql --password hunter22 -u root",
    maxTokens: 256,
  }),
);
await session.observer.flush();
const [recorded] = store.listSessionSignals(session.id);
console.log(JSON.stringify(recorded!.payload.payload, null, 2));
assert.doesNotMatch(JSON.stringify(recorded), /sk-live|eyJhbGciOi|hunter22|abc123/);
assert.equal((recorded!.payload.payload as { maxTokens: number }).maxTokens, 256); // counts stay readable

// The same rules, called directly (an exporter or a log formatter of your own does this).
assert.equal(redactText("retrying with Bearer abc.def.ghi"), "retrying with Bearer [redacted]");
assert.deepEqual(redactValue({ user: "ada", password: "pw" }), { user: "ada", password: "[redacted]" });

// A key name of your own: matched anywhere in a key, ignoring case and separators.
assert.equal(isSecretKey("customer_ssn"), false);
configureRedaction({ keys: ["ssn"] });
assert.equal(isSecretKey("customer_ssn"), true);
assert.deepEqual(redactValue({ customerSSN: "123-45-6789" }), { customerSSN: "[redacted]" });
configureRedaction(); // back to the defaults
