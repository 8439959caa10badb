/**
 * What redaction adds to a signal's one encode step (`encodeSignal`, run once per signal in the
 * pipeline's flush): the same signals encoded with the shared rules in force and with redaction
 * turned off. Two shapes: a typical ~1.1 KiB tool-call signal with nothing secret in it, and one
 * that carries headers, a URL with credentials and a bearer token. The typical one is measured
 * over 2,000 different calls (ids, queries and links differ; names repeat, as in a real program)
 * and as one signal repeated, the case the rules' memory of short texts helps most.
 */
import { HookSignal } from "../../runtime/src/session/signal.js";
import { encodeSignal } from "../../runtime/src/session/pipeline/encodedSignal.js";
import { configureRedaction } from "../../runtime/src/shared/redaction/index.js";
import { report, type Comparison } from "./measure.js";

/** The typical signal of call `n`: ids, the query and the hits differ per call, names and shapes repeat. */
function typicalSignal(n = 0): HookSignal {
  const topics = ["return an item", "track my parcel", "change my address", "cancel an order", "apply a voucher"];
  return new HookSignal("tool.post", {
    toolName: "search_documents",
    callId: `5f0c2b8e-9a51-4d2e-8f0a-${(0x3c9e1d7b6a42 + n).toString(16).padStart(12, "0")}`,
    duration: 0.0213,
    resultSummary: JSON.stringify({
      hits: [
        { title: "Returns policy", score: 0.91 },
        { title: "Shipping times", score: 0.77 },
      ],
    }),
    arguments: {
      query: `how do I ${topics[n % topics.length]} bought ${n} days ago`,
      limit: 10,
      filters: { language: "en", section: ["help", "faq"] },
    },
    result: {
      hits: Array.from({ length: 6 }, (_, i) => ({
        id: `doc-${n + i}`,
        title: `Document number ${n + i}`,
        url: `https://docs.example.com/help/${n + i}?lang=en`,
        score: 0.9 - i / 10,
      })),
      tookMs: 12,
    },
  });
}

function secretSignal(): HookSignal {
  return new HookSignal("tool.pre", {
    toolName: "http_get",
    callId: "9a1e2c3d-4b5f-6071-8293-a4b5c6d7e8f9",
    arguments: {
      url: "https://svc:hunter2@api.example.com/v1/items?access_token=abcd1234efgh&page=2",
      headers: [
        ["Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"],
        ["accept", "application/json"],
      ],
      apiKey: "sk-proj-0123456789abcdefghijklmn",
      command: "curl -H 'Authorization: Bearer tok_9f8e7d6c' https://api.example.com",
    },
  });
}

/**
 * CPU microseconds per encode, redaction on and off interleaved over several rounds, the lowest
 * of each kept: on a shared, loaded machine wall time mostly measures the other processes.
 * `signals` are encoded in turn; fresh rules each round, so nothing is remembered between rounds.
 */
function cpuPerSignal(signals: readonly HookSignal[], rounds = 9, iterations = 2_000): { on: number; off: number } {
  const best = { on: Infinity, off: Infinity };
  for (let round = 0; round < rounds; round++) {
    for (const mode of ["off", "on"] as const) {
      configureRedaction(mode === "off" ? { enabled: false } : {});
      for (let i = 0; i < 200; i++) encodeSignal(signals[i % signals.length]!, 0);
      const start = process.cpuUsage();
      for (let i = 0; i < iterations; i++) encodeSignal(signals[i % signals.length]!, 0);
      const used = process.cpuUsage(start);
      best[mode] = Math.min(best[mode], ((used.user + used.system) * 1_000) / iterations);
    }
  }
  configureRedaction();
  return best;
}

export async function run(): Promise<string> {
  const rows: Comparison[] = [];
  const calls = Array.from({ length: 2_000 }, (_, n) => typicalSignal(n));
  for (const [label, signals] of [
    ["encodeSignal, typical 1.1 KiB signal, 2,000 different calls", calls],
    ["encodeSignal, the same typical signal again and again", [typicalSignal()]],
    ["encodeSignal, signal full of secrets", [secretSignal()]],
  ] as const) {
    const { on, off } = cpuPerSignal(signals);
    rows.push({ label, subject: { name: "redaction on", nsPerOp: on }, baseline: { name: "redaction off", nsPerOp: off } });
  }
  return report("Redaction in the signal encode step (CPU per signal, once per signal)", rows);
}
