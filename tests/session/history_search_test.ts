import assert from "node:assert/strict";
import { join } from "node:path";
import { archiveDir, archiveMessages } from "../../src/session/archive.ts";
import { collectCorpus } from "../../src/session/history_corpus.ts";
import { type HistoryDirs, historyWindow, searchHistory } from "../../src/session/history_search.ts";
import { SessionStore } from "../../src/session/store.ts";
import type { ChatMessage } from "../../src/provider/provider.ts";
import { formatSearch, formatWindow } from "../../src/tool/builtin/history.ts";

interface Fixture {
  dirs: HistoryDirs;
  other: string;
  root: string;
}

async function withState(body: (fixture: Fixture) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "history-" });
  const workspace = join(root, "ws-a");
  const other = join(root, "ws-b");
  await Deno.mkdir(workspace);
  await Deno.mkdir(other);
  const state = join(root, "state");
  try {
    await body({
      dirs: { sessionsDir: join(state, "sessions"), archiveDir: archiveDir(state), workspace },
      other,
      root,
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const user = (content: string): ChatMessage => ({ role: "user", content });
const assistant = (content: string): ChatMessage => ({ role: "assistant", content });

/** A saved session in `workspace` with the system prompt and context first, as the Controller writes them. */
async function saved(
  dirs: HistoryDirs,
  options: { workspace?: string; messages: ChatMessage[]; mtime?: number },
): Promise<{ id: string; file: string }> {
  const store = await SessionStore.create(dirs.sessionsDir, {
    workspace: options.workspace ?? dirs.workspace,
    model: "m",
    provider: "p",
    now: new Date("2026-11-30T10:00:00Z"),
  });
  await store.appendMany([
    { type: "message", message: { role: "system", content: "You are Reasonix. parser tokenizer" } },
    { type: "message", message: user('<session-context version="1">parser tokenizer</session-context>') },
    ...options.messages.map((message) => ({ type: "message" as const, message })),
  ]);
  store.close();
  if (options.mtime !== undefined) await Deno.utime(store.file, options.mtime, options.mtime);
  return { id: store.id, file: store.file };
}

Deno.test("searchHistory() ranks the message with every query word first and skips setup messages", async () => {
  await withState(async ({ dirs }) => {
    const a = await saved(dirs, {
      messages: [user("the tokenizer breaks on tabs"), assistant("I will look at the lexer")],
    });
    const b = await saved(dirs, {
      messages: [user("unrelated: deploy the site"), user("we found a tokenizer regression in the parser")],
    });
    const result = await searchHistory(dirs, { query: "tokenizer regression parser", scope: "project" });
    assert.deepEqual(result.hits.map((hit) => [hit.session, hit.seq, hit.role]), [
      [b.id, 5, "user"],
      [a.id, 4, "user"],
    ]);
    assert.match(result.hits[0]!.snippet, /tokenizer regression in the parser/);
    assert.equal(result.hits[0]!.workspace, undefined, "the project scope does not repeat the workspace");
    assert.equal(result.stats.files, 2);
    const answers = await searchHistory(dirs, {
      query: "tokenizer lexer",
      scope: "project",
      roles: ["assistant"],
    });
    assert.deepEqual(answers.hits.map((hit) => [hit.session, hit.role]), [[a.id, "assistant"]]);
    const call = {
      id: "c1",
      type: "function" as const,
      function: { name: "bash", arguments: '{"command":"make"}' },
    };
    const ran = await saved(dirs, {
      messages: [{ role: "assistant", content: null, tool_calls: [call] }, {
        role: "tool",
        tool_call_id: "c1",
        name: "bash",
        content: "make: *** [tokenizer.o] Error 1",
      }],
    });
    const tools = await searchHistory(dirs, { query: "tokenizer.o", scope: "project", roles: ["tool"] });
    assert.deepEqual(tools.hits.map((hit) => [hit.session, hit.seq, hit.tool]), [[ran.id, 5, "bash"]]);
    const calls = await searchHistory(dirs, { query: "make", scope: "project", roles: ["assistant"] });
    assert.match(calls.hits[0]!.snippet, /^bash\(\{"command":"make"\}\)$/);
  });
});

Deno.test("searchHistory() keeps the project scope to this workspace; global searches every workspace", async () => {
  await withState(async ({ dirs, other }) => {
    await saved(dirs, { messages: [user("zebra migration plan")] });
    const theirs = await saved(dirs, { workspace: other, messages: [user("zebra zebra zebra migration")] });
    const project = await searchHistory(dirs, { query: "zebra", scope: "project" });
    assert.equal(project.hits.length, 1);
    assert.ok(project.hits.every((hit) => hit.session !== theirs.id));
    const global = await searchHistory(dirs, { query: "zebra", scope: "global" });
    assert.deepEqual(
      global.hits.map((hit) => hit.session).sort(),
      [project.hits[0]!.session, theirs.id].sort(),
    );
    assert.equal(global.hits.find((hit) => hit.session === theirs.id)?.workspace, other);
    // A session of another workspace cannot be opened through the project scope either.
    assert.equal(await historyWindow(dirs, { scope: "project", session: theirs.id, seq: 3 }), undefined);
    assert.ok(await historyWindow(dirs, { scope: "global", session: theirs.id, seq: 3 }));
  });
});

Deno.test("searchHistory() global scope finds compaction archives, without repeating messages still saved", async () => {
  await withState(async ({ dirs }) => {
    const kept = await saved(dirs, { messages: [user("the quokka benchmark numbers")] });
    const file = await archiveMessages(dirs.archiveDir, {
      session: kept.id,
      at: new Date("2026-12-01T09:00:00Z"),
      messages: [user("the quokka benchmark numbers"), user("raw paste: quokka stack trace line 42")],
    });
    const project = await searchHistory(dirs, { query: "quokka", scope: "project" });
    assert.deepEqual(project.hits.map((hit) => hit.session), [kept.id]);
    const global = await searchHistory(dirs, { query: "quokka", scope: "global" });
    const archived = global.hits.filter((hit) => hit.session.startsWith("archive:"));
    assert.equal(global.hits.length, 2, "the archived copy of a saved message is not a second hit");
    assert.equal(archived.length, 1);
    assert.equal(archived[0]!.origin, kept.id);
    assert.equal(archived[0]!.seq, 2);
    assert.equal(archived[0]!.at, "2026-12-01T09:00:00.000Z");
    const name = `archive:${file.split("/").at(-1)!.replace(/\.jsonl$/, "")}`;
    assert.equal(archived[0]!.session, name);
    const window = await historyWindow(dirs, { scope: "global", session: name, seq: 2, before: 1, after: 1 });
    assert.deepEqual(window?.messages.map((m) => m.text), [
      "the quokka benchmark numbers",
      "raw paste: quokka stack trace line 42",
    ]);
    assert.equal(await historyWindow(dirs, { scope: "project", session: name, seq: 2 }), undefined);
  });
});

Deno.test("historyWindow() returns a bounded window around the hit and refuses names that are paths", async () => {
  await withState(async ({ dirs }) => {
    const messages = Array.from(
      { length: 10 },
      (_, i) => i % 2 ? assistant(`answer ${i}`) : user(`ask ${i}`),
    );
    const { id } = await saved(dirs, { messages });
    const window =
      (await historyWindow(dirs, { scope: "project", session: id, seq: 8, before: 2, after: 1 }))!;
    assert.deepEqual(window.messages.map((m) => [m.seq, m.role, m.text, m.anchor ?? false]), [
      [6, "user", "ask 2", false],
      [7, "assistant", "answer 3", false],
      [8, "user", "ask 4", true],
      [9, "assistant", "answer 5", false],
    ]);
    assert.deepEqual(window.more, { before: 2, after: 4 });
    const wide =
      (await historyWindow(dirs, { scope: "project", session: id, seq: 8, before: 99, after: 99 }))!;
    assert.equal(wide.messages.length, 10, "before/after are capped at 10 each; this session has 10");
    const big = Array.from({ length: 30 }, (_, i) => user(`${i} ${"x".repeat(5_000)}`));
    const large = await saved(dirs, { messages: big });
    const full =
      (await historyWindow(dirs, { scope: "project", session: large.id, seq: 20, before: 10, after: 10 }))!;
    assert.equal(full.messages.length, 21);
    const chars = full.messages.reduce((sum, m) => sum + m.text.length, 0);
    assert.ok(chars <= 12_000 + 21 * 30, `a window holds ${chars} chars`);
    assert.match(full.messages[0]!.text, /… \[\d+ more chars\]$/);
    assert.match(formatWindow(window), /\[8\] user · .* ◀ the result\nask 4/);
    for (const bad of ["../" + id, `${id}/../x`, "/etc/passwd", "archive:../../x", ""]) {
      assert.equal(await historyWindow(dirs, { scope: "global", session: bad, seq: 1 }), undefined, bad);
    }
  });
});

Deno.test("formatSearch() says how to retry when nothing matches", async () => {
  await withState(async ({ dirs }) => {
    await saved(dirs, { messages: [user("hello there")] });
    const project = await searchHistory(dirs, { query: "kubernetes", scope: "project" });
    assert.equal(project.hits.length, 0);
    assert.match(formatSearch(project), /^No saved message matches "kubernetes" in this project's sessions/);
    assert.match(formatSearch(project), /broader words.*scope "global"/);
    const global = await searchHistory(dirs, { query: "kubernetes", scope: "global" });
    assert.doesNotMatch(formatSearch(global), /scope "global"/);
    assert.match(formatSearch(global), /Retry with fewer or broader words/);
    const stop = await searchHistory(dirs, { query: "the and of", scope: "project" });
    assert.equal(stop.hits.length, 0, "function words alone match nothing");
    assert.equal(stop.stats.files, 0, "and nothing is read for them");
    assert.match(formatSearch(stop), /^"the and of" holds only common words/);
  });
});

Deno.test("searchHistory() bounds results, snippets, files read, and redacts credentials", async () => {
  await withState(async ({ dirs }) => {
    const long = `${"filler ".repeat(400)}needle ${"tail ".repeat(400)}`;
    const secret = "sk-abcdefghijklmnopqrstuvwxyz012345";
    const messages = Array.from({ length: 30 }, (_, i) => user(`needle number ${i}`));
    const old = await saved(dirs, { messages: [user(long), user(`needle key ${secret}`)], mtime: 1_000 });
    const fresh = await saved(dirs, { messages, mtime: 2_000 });
    const capped = await searchHistory(dirs, { query: "needle", scope: "project", limit: 500 });
    assert.equal(capped.hits.length, 20, "at most 20 results");
    const fewer = await searchHistory(dirs, { query: "needle", scope: "project" });
    assert.equal(fewer.hits.length, 5, "5 by default");
    const longHit = (await searchHistory(dirs, { query: "needle filler", scope: "project", limit: 20 }))
      .hits.find((hit) => hit.session === old.id && hit.seq === 4)!;
    assert.ok(longHit.snippet.length <= 242, `snippet of ${longHit.snippet.length} chars`);
    assert.match(longHit.snippet, /^….*needle.*…$/);
    const keyed = await searchHistory(dirs, { query: "key", scope: "project" });
    assert.equal(keyed.hits.length, 1);
    assert.ok(!keyed.hits[0]!.snippet.includes(secret) && keyed.hits[0]!.snippet.includes("[redacted]"));
    const window = await historyWindow(dirs, { scope: "project", session: old.id, seq: 5 });
    assert.ok(!JSON.stringify(window).includes(secret));
    const budget = await collectCorpus(dirs, "project", {
      limits: { maxFiles: 1, maxBytes: 1 << 30, maxFileBytes: 1 << 30, maxDocChars: 100 },
    });
    assert.equal(budget.stats.files, 1);
    assert.ok(budget.stats.capped);
    assert.ok(budget.docs.every((doc) => doc.session !== old.id), "the newest file is read first");
    assert.ok(budget.docs.every((doc) => doc.text.length <= 100));
    const sizes = [(await Deno.stat(fresh.file)).size, (await Deno.stat(old.file)).size];
    assert.ok(sizes[0]! < sizes[1]!);
    const small = await collectCorpus(dirs, "project", {
      limits: { maxFiles: 10, maxBytes: 1 << 30, maxFileBytes: sizes[0]!, maxDocChars: 100 },
    });
    assert.equal(small.stats.skipped, 1, "a file over the per-file cap is skipped");
    assert.ok(small.docs.every((doc) => doc.session === fresh.id));
  });
});

Deno.test("searchHistory() reads a damaged session leniently and ignores files that are not sessions", async () => {
  await withState(async ({ dirs }) => {
    const { file } = await saved(dirs, { messages: [user("walrus one")] });
    await Deno.writeTextFile(
      file,
      `not json\n${JSON.stringify({ type: "message", message: user("walrus two") })}\n`,
      {
        append: true,
      },
    );
    await Deno.writeTextFile(join(file, "..", "20260101-000000-deadbeef.jsonl"), "garbage walrus\n");
    const result = await searchHistory(dirs, { query: "walrus", scope: "project" });
    assert.deepEqual(result.hits.map((hit) => hit.snippet).sort(), ["walrus one", "walrus two"]);
  });
});

Deno.test("searchHistory() numbers unparsed messages by their stored seq, as historyWindow() does", async () => {
  await withState(async ({ dirs }) => {
    const { id, file } = await saved(dirs, { messages: [] });
    const lines = [
      {
        type: "usage",
        usage: {},
        model: "m",
        cost: null,
        currency: null,
        at: "2026-12-01T01:00:00.000Z",
        seq: 6,
      },
      { type: "message", message: user("alpha one"), seq: 12 },
      { type: "entry", entry: { kind: "turn", turn: 2, text: "x" }, at: "2026-12-01T02:00:00.000Z" },
      { type: "message", message: user("beta two") },
      { type: "message", message: assistant("alpha three") },
    ];
    await Deno.writeTextFile(file, lines.map((line) => JSON.stringify(line) + "\n").join(""), {
      append: true,
    });
    const beta = await searchHistory(dirs, { query: "beta", scope: "project" });
    assert.deepEqual(beta.hits.map((hit) => [hit.seq, hit.at]), [[14, "2026-12-01T02:00:00.000Z"]]);
    const alpha = await searchHistory(dirs, { query: "alpha", scope: "project" });
    assert.deepEqual(alpha.hits.map((hit) => hit.seq).sort((a, b) => a - b), [12, 15]);
    const window =
      (await historyWindow(dirs, { scope: "project", session: id, seq: 14, before: 1, after: 1 }))!;
    const shown = window.messages.map((m) => `${m.seq} ${m.text}`);
    assert.deepEqual(shown, ["12 alpha one", "14 beta two", "15 alpha three"]);
  });
});

Deno.test("searchHistory() leaves out the running session's messages since its last compaction", async () => {
  await withState(async ({ dirs }) => {
    const { id, file } = await saved(dirs, { messages: [user("heron before the compaction")] });
    const compaction = {
      type: "compaction",
      messages: [user("summary: heron")],
      reason: "manual",
      beforeTokens: 9,
      afterTokens: 1,
      at: "2026-12-01T03:00:00.000Z",
    };
    const after = { type: "message", message: user("heron after the compaction") };
    await Deno.writeTextFile(file, `${JSON.stringify(compaction)}\n${JSON.stringify(after)}\n`, {
      append: true,
    });
    const texts = async (current?: string) =>
      (await searchHistory({ ...dirs, ...(current ? { current } : {}) }, {
        query: "heron",
        scope: "project",
      }))
        .hits.map((hit) => hit.snippet).sort();
    assert.deepEqual(await texts(), ["heron after the compaction", "heron before the compaction"]);
    assert.deepEqual(await texts(id), ["heron before the compaction"], "the live part is left out");
    assert.deepEqual(await texts("20990101-000000-00000000"), await texts(), "other sessions are whole");
    const window = await historyWindow({ ...dirs, current: id }, { scope: "project", session: id, seq: 4 });
    assert.equal(window?.messages.length, 2, "around still reads the whole running session");
  });
});
