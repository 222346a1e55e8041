import assert from "node:assert/strict";
import { countTokens, encodePieces, encodeTokens } from "./tokenizer.ts";

Deno.test("countTokens uses DeepSeek V3's BPE, not a characters-per-token estimate", () => {
  assert.equal(countTokens(""), 0);
  assert.deepEqual([...encodeTokens("hello world")], [33310, 2058]);
  // JSON schema text costs more tokens than 4 characters a token would say.
  const schema = JSON.stringify({
    type: "object",
    properties: { path: { type: "string" }, offset: { type: "integer" } },
    required: ["path"],
  });
  assert.equal(countTokens(schema), 28);
  assert.ok(countTokens(schema) > Math.ceil(schema.length / 4));
});

Deno.test("countTokens counts DeepSeek's special tokens as one token each", () => {
  assert.equal(countTokens("<｜User｜>"), 1);
  assert.equal(countTokens("<｜end▁of▁sentence｜>"), 1);
  assert.equal(countTokens("hi<｜Assistant｜>there"), countTokens("hi") + 1 + countTokens("there"));
});

Deno.test("encodePieces keeps the ids of a prefix of pieces stable", () => {
  const pieces = ["You are terse.", "<｜User｜>", "read a.txt", "<｜Assistant｜>"];
  const whole = encodePieces(pieces);
  const prefix = encodePieces(pieces.slice(0, 3));
  assert.deepEqual([...whole.slice(0, prefix.length)], [...prefix]);
  assert.equal(whole.length, pieces.reduce((sum, piece) => sum + countTokens(piece), 0));
});
