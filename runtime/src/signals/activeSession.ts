import type { SignalRecorder } from "./signalRecorder.js";

/** The Session made last in this process, held weakly: a session nobody uses any more is not kept for this. */
let latest: WeakRef<SignalRecorder> | null = null;

/** Called by every new Session: from now on it is where calls of models and executors given no `signals` are recorded. */
export function noteSessionStarted(session: SignalRecorder): void {
  latest = new WeakRef(session);
}

/**
 * The active session: the Session made last in this process, if it is still alive. An IModel or
 * Executor given no `signals` records its calls here, so a program with a Session sees its model
 * calls without wiring anything (the service scope cannot import the session scope, hence this
 * small meeting point in `signals/`).
 */
export function activeSession(): SignalRecorder | null {
  return latest?.deref() ?? null;
}

/**
 * What an IModel or Executor records into: the `signals` it was given (or set later), else the
 * active session at the time of each call, else `fallback` (HOOKLENS_OTEL's recorder, or none).
 */
export class RecorderChoice {
  #given: SignalRecorder | null;
  #followsSession: boolean;

  constructor(given: SignalRecorder | null | undefined, fallback: () => SignalRecorder | null) {
    this.#followsSession = given === undefined;
    this.#given = given === undefined ? fallback() : given;
  }

  /** The recorder given or set (or the fallback when none was): what the public `signals` property reads. */
  get given(): SignalRecorder | null {
    return this.#given;
  }

  /** No recorder was given or set: calls follow the active session. */
  get followsSession(): boolean {
    return this.#followsSession;
  }

  /** Setting a recorder ends following the active session. */
  set given(recorder: SignalRecorder | null) {
    this.#given = recorder;
    this.#followsSession = false;
  }

  /** The recorder for a call now; `preferred` (the owner's own session, when it knows one) comes before the active session. */
  current(preferred: SignalRecorder | null = null): SignalRecorder | null {
    return this.#followsSession ? (preferred ?? activeSession() ?? this.#given) : this.#given;
  }
}
