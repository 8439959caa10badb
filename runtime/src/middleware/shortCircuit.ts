/**
 * Returned by a `before*` phase to skip the call (its value becomes the result), or by an
 * `on*Error` phase to recover from the error with that value.
 */
export class ShortCircuit<T = unknown> {
  readonly value: T;

  constructor(value: T) {
    this.value = value;
  }
}
