import type { Code } from "./code.js";

/** A name the generated code imports from @hooklens/runtime. */
export interface RuntimeImport {
  name: string;
  /** Types only: written as `type Name` in TypeScript and left out in JavaScript. */
  typeOnly: boolean;
}

/** What a template produces: the imports it needs and the code that uses them. */
export interface Scaffold {
  imports: readonly RuntimeImport[];
  body: Code;
}

export const RUNTIME_MODULE = "@hooklens/runtime";

export const value = (name: string): RuntimeImport => ({ name, typeOnly: false });
export const type = (name: string): RuntimeImport => ({ name, typeOnly: true });
