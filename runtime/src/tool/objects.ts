/** Argument and result objects as tools see them: string keys, any values. */
export type ToolArgs = Record<string, unknown>;

/**
 * True for `{}`-style objects (prototype `Object.prototype` or `null`): the TypeScript reading of
 * Python's `isinstance(x, dict)`. Arrays, class instances and proxies that refuse inspection are not.
 */
export function isPlainObject(value: unknown): value is ToolArgs {
  if (value === null || typeof value !== "object") return false;
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}

/** An own property's value, never an inherited one (so `constructor` or a polluted prototype never leaks in). */
export function ownValue(object: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? (object as ToolArgs)[key] : undefined;
}

/** Sets an own data property even for keys such as `__proto__`, which plain assignment would treat as the prototype. */
export function defineOwn(target: ToolArgs, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A shallow copy of the own enumerable keys (Python's `**kwargs` copy). Keys such as `__proto__`
 * stay data, and accessors are copied as accessors, so a getter runs only if the callee reads it.
 */
export function copyArgs(args: ToolArgs): ToolArgs {
  const out: ToolArgs = {};
  for (const key of Object.keys(args)) {
    const descriptor = Object.getOwnPropertyDescriptor(args, key);
    if (descriptor) Object.defineProperty(out, key, { ...descriptor, configurable: true });
  }
  return out;
}
