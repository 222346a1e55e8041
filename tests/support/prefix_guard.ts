/**
 * Guards for the cache-first guarantees, applied to the raw request bodies the simulator recorded.
 * They work on bytes, not on parsed objects: a re-serialisation that keeps the meaning but changes a
 * byte breaks DeepSeek's prefix cache, so it must fail here too.
 */
import assert from "node:assert/strict";

export interface BodyParts {
  system: string;
  tools: string;
  /** The raw `messages` array text without its closing bracket. */
  messagesOpen: string;
}

export function splitBody(body: string): BodyParts {
  const messagesStart = body.indexOf(`"messages":[`);
  const toolsStart = body.indexOf(`],"tools":[`);
  const streamStart = body.indexOf(`,"stream":`);
  assert.ok(messagesStart >= 0 && toolsStart > messagesStart && streamStart > toolsStart, "body layout");
  const messagesOpen = body.slice(messagesStart + `"messages":[`.length, toolsStart);
  const firstMessageEnd = messagesOpen.indexOf(`},{`);
  return {
    system: messagesOpen.slice(0, firstMessageEnd + 1),
    tools: body.slice(toolsStart + 2, streamStart),
    messagesOpen,
  };
}

/** Guarantee 1: the system prompt and the tool schemas are byte-identical in every request. */
export function assertStablePrefix(bodies: readonly string[]): void {
  const first = splitBody(bodies[0]!);
  bodies.forEach((body, i) => {
    const parts = splitBody(body);
    assert.equal(parts.system, first.system, `request ${i + 1}: the system prompt bytes changed`);
    assert.equal(parts.tools, first.tools, `request ${i + 1}: the tool schema bytes changed`);
  });
}

/** Guarantee 3: each request's messages start with the previous request's messages, byte for byte. */
export function assertPrependOnly(bodies: readonly string[]): void {
  for (let i = 1; i < bodies.length; i++) {
    const before = splitBody(bodies[i - 1]!).messagesOpen;
    const after = splitBody(bodies[i]!).messagesOpen;
    assert.ok(
      after.startsWith(before + ","),
      `request ${i + 1} does not extend request ${i}: first difference at character ${
        firstDifference(before, after)
      }`,
    );
  }
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}
