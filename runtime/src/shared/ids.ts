import { randomFillSync } from "node:crypto";

/**
 * UUIDs made per refill: one call for the random bytes of all of them (the call costs ~5 µs here
 * whatever its size, so a batch of 128 paid ~45 ns per id for it).
 */
const BATCH = 1_024;
const random = Buffer.alloc(16 * BATCH);
const text = Buffer.alloc(36 * BATCH);
const HEX = Buffer.from("0123456789abcdef", "latin1");
const DASH = 0x2d;
let taken = BATCH;

/**
 * A random (version 4) UUID, as `crypto.randomUUID()` makes it: 122 random bits from the same
 * CSPRNG, the same text. Made here because every signal, message and call gets one, and
 * `crypto.randomUUID()` returns its text as some twenty concatenated pieces (a V8 cons string):
 * ~0.6 KB of garbage per id, or held as long as the id is, and a copy when it is first read.
 * This one is one flat string of its own (a slice of a shared string would be cheaper to make,
 * but would keep the shared string alive as long as any of its ids lives: measured, the garbage
 * collector's extra copying cost more than the slicing saved).
 */
export function newId(): string {
  if (taken === BATCH) refill();
  const start = 36 * taken++;
  return text.toString("latin1", start, start + 36);
}

function refill(): void {
  randomFillSync(random);
  let at = 0;
  for (let id = 0; id < BATCH; id++) {
    const bytes = 16 * id;
    random[bytes + 6] = (random[bytes + 6]! & 0x0f) | 0x40; // version 4
    random[bytes + 8] = (random[bytes + 8]! & 0x3f) | 0x80; // RFC 4122 variant
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = DASH;
      const byte = random[bytes + i]!;
      text[at++] = HEX[byte >> 4]!;
      text[at++] = HEX[byte & 0x0f]!;
    }
  }
  taken = 0;
}
