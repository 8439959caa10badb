import type { Pack, Rule } from "../engine/pack.js";
import { hookLensPack } from "./hooklens/index.js";

/**
 * Every hook library the analyzer knows, one pack each (see README.md in this folder). Adding a
 * library is one folder here and one line in this list.
 */
export const PACKS: readonly Pack[] = [hookLensPack];

/** Every rule of every pack, in pack order then code order. */
export const ALL_RULES: readonly Rule[] = PACKS.flatMap((pack) => pack.rules);
