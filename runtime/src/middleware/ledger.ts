import { z } from "zod";
import { optionsObject, requireName, requireObject } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";

/** USD per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/**
 * Prices keyed by `"<provider>/<model>"` or by model name alone; a call is priced by its
 * `"provider/model"` entry when there is one, else by its model's. With an `IModelClient` the
 * provider is the endpoint's `name` and the model the endpoint's `model` (unless the client was
 * given others).
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

const priceTableSchema = z.record(
  z.string(),
  z.strictObject({ inputPerMillion: z.number().min(0), outputPerMillion: z.number().min(0) }),
);

/** One billed model call. `costUsd` is null when the cost is unknown (no usage, or no price). */
export interface LedgerEntry {
  readonly runId: string;
  readonly threadId: string;
  readonly provider: string;
  readonly model: string;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly costUsd: number | null;
  /** Epoch milliseconds. */
  readonly at: number;
}

export interface LedgerRecord {
  runId: string;
  threadId?: string;
  provider: string;
  model: string;
  /** Null when the provider reported no usage. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** A cost the provider reported; otherwise it is computed from the price table. */
  costUsd?: number;
}

export interface LedgerFilter {
  threadId?: string;
}

/** Records model spend per call and sums it by run, by thread or over everything. */
export class Ledger {
  readonly #prices: PriceTable;
  readonly #entries: LedgerEntry[] = [];

  constructor(options: { prices?: PriceTable } = {}) {
    options = optionsObject(options, "new Ledger(options)");
    const parsed = priceTableSchema.safeParse(options.prices ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(prices)"}: ${i.message}`).join("; ");
      throw new InvalidValueError(`new Ledger(options): prices must map "provider/model" or "model" to { inputPerMillion, outputPerMillion } (USD per million tokens): ${issues}`);
    }
    this.#prices = { ...parsed.data };
  }

  /** Adds one model call and returns its entry. */
  record(call: LedgerRecord): LedgerEntry {
    requireObject(call, "Ledger.record(call)", "call ({ runId, provider, model, inputTokens, outputTokens })");
    for (const name of ["runId", "provider", "model"] as const) requireName(call[name], "Ledger.record(call)", `call.${name}`);
    for (const n of [call.inputTokens, call.outputTokens, call.costUsd]) {
      if (n !== null && n !== undefined && !(Number.isFinite(n) && n >= 0)) {
        throw new InvalidValueError(`ledger amounts must be finite and non-negative, got ${n}`);
      }
    }
    const entry: LedgerEntry = Object.freeze({
      runId: call.runId,
      threadId: call.threadId ?? "",
      provider: call.provider,
      model: call.model,
      inputTokens: call.inputTokens,
      outputTokens: call.outputTokens,
      costUsd: call.costUsd ?? this.#price(call),
      at: Date.now(),
    });
    this.#entries.push(entry);
    return entry;
  }

  /** The known spend of one run, of one thread (`{ threadId }`), of both, or of everything (no arguments). */
  totalUsd(runId?: string | null, filter: LedgerFilter = {}): number {
    let total = 0;
    for (const e of this.#select(runId, filter)) total += e.costUsd ?? 0;
    return total;
  }

  /** How many selected entries have no known cost (a budget cannot vouch for them). */
  unpricedCount(runId?: string | null, filter: LedgerFilter = {}): number {
    let count = 0;
    for (const e of this.#select(runId, filter)) if (e.costUsd === null) count += 1;
    return count;
  }

  /** The selected entries, oldest first. */
  entries(runId?: string | null, filter: LedgerFilter = {}): LedgerEntry[] {
    return [...this.#select(runId, filter)];
  }

  *#select(runId: string | null | undefined, filter: LedgerFilter): Iterable<LedgerEntry> {
    for (const e of this.#entries) {
      if (runId !== undefined && runId !== null && e.runId !== runId) continue;
      if (filter.threadId !== undefined && e.threadId !== filter.threadId) continue;
      yield e;
    }
  }

  #price(call: LedgerRecord): number | null {
    const price = ownPrice(this.#prices, `${call.provider}/${call.model}`) ?? ownPrice(this.#prices, call.model);
    if (price === undefined || call.inputTokens === null || call.outputTokens === null) return null;
    return (call.inputTokens * price.inputPerMillion + call.outputTokens * price.outputPerMillion) / 1_000_000;
  }
}

/** The table's own entry: a model called "constructor" or "toString" must not find Object's methods. */
function ownPrice(prices: PriceTable, key: string): ModelPrice | undefined {
  return Object.hasOwn(prices, key) ? prices[key] : undefined;
}
