// A service stream handler with the signature dispatch really uses: (null, chunkType, chunk, params).
import { capitalize } from "../identifier.js";
import { code, esm, propertyKey, stop, typed } from "./code.js";
import { type, value, type Scaffold } from "./scaffold.js";

export interface ServiceStreamOptions {
  name: string;
  /** The key chunks are dispatched under: "Object" for plain JSON chunks, "String" for strings. */
  chunkType: string;
}

export function serviceStreamHandler({ name, chunkType }: ServiceStreamOptions): Scaffold {
  const body = code`/**
 * Stream handler for ${JSON.stringify(chunkType)} chunks. The registry calls it as (null, chunkType, chunk, params):
 * the first argument is always null and the chunk comes third.
 * Return a replacement chunk, or null to deliver the chunk unchanged. With the exit policy off a
 * throw is ignored (the original chunk is delivered); with it on, the stream ends with the error.
 */
${esm("export ")}const ${name}${typed(": StreamHandler")} = (_event, _chunkType, chunk, _params) => {
  ${stop(1, "return chunk;")}${stop(0)}
};

/** A registry with ${name} installed; pass it as \`new IModel({ endpoint, hookRegistry })\`. */
${esm("export ")}function create${capitalize(name)}Registry()${typed(": HookRegistry")} {
  return new HookRegistry({ streamHandlers: { ${propertyKey(chunkType)}: ${name} } });
}
`;
  return { imports: [value("HookRegistry"), type("StreamHandler")], body };
}
