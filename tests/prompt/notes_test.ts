import assert from "node:assert/strict";
import { NOTES_HEADING, notesIn, withNote, withoutNote } from "../../src/prompt/notes.ts";

Deno.test("withNote() starts a notes section at the end of a file, or an empty file", () => {
  assert.equal(withNote("", "use tabs"), `${NOTES_HEADING}\n\n- use tabs\n`);
  assert.equal(
    withNote("# Project\n\nBe brief.\n\n", "use tabs"),
    `# Project\n\nBe brief.\n\n${NOTES_HEADING}\n\n- use tabs\n`,
  );
});

Deno.test("withNote() appends after the last note, even when the section is not last", () => {
  const text = `# P\n\n${NOTES_HEADING}\n\n- one\n- two\n\n## Later\n\ntext\n`;
  const next = withNote(text, "three\nlines");
  assert.equal(next, `# P\n\n${NOTES_HEADING}\n\n- one\n- two\n- three lines\n\n## Later\n\ntext\n`);
  assert.deepEqual(notesIn(next), ["one", "two", "three lines"]);
});

Deno.test("notesIn() reads only the notes section; withoutNote() removes one of its lines", () => {
  const text = `- not a note\n\n${NOTES_HEADING}\n\n- a\n- b\n`;
  assert.deepEqual(notesIn(text), ["a", "b"]);
  assert.equal(withoutNote(text, 0), `- not a note\n\n${NOTES_HEADING}\n\n- b\n`);
  assert.equal(withoutNote(text, 5), text);
  assert.deepEqual(notesIn("# no section\n- x\n"), []);
});
