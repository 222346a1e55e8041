/**
 * Memory approval per mode, through a real Controller, the simulator and the real store: only a small,
 * harmless, new project fact is saved without asking; global facts, preferences, updates, duplicates,
 * secrets, oversized text and every forget ask a person even in auto and yolo; headless runs fail closed.
 */
import assert from "node:assert/strict";
import {
  memoryCall,
  type MemorySession,
  seedDeploy,
  toolResults,
  withMemorySession,
} from "../support/memory_session.ts";

const DONE = { content: "done" };

function messages(sim: MemorySession["sim"]) {
  return sim.requests.at(-1)!.json.messages as { tool_calls?: { id: string }[] }[];
}
const FACT = { description: "How to run the tests", body: "Run `deno task test` from the repository root." };

for (const mode of ["read-only", "auto", "yolo"] as const) {
  Deno.test(`remember saves a small new project fact without asking in ${mode} mode`, async () => {
    await withMemorySession(
      [memoryCall("remember", FACT), DONE],
      { mode },
      async ({ sim, controller, store, asked }) => {
        await controller.runTurn("remember how to run the tests");
        assert.equal(asked.length, 0);
        const [saved] = await store.list();
        assert.equal(saved?.body, FACT.body);
        assert.equal(saved?.scope, "project");
        assert.match(
          toolResults(sim)[0]!,
          /^Memory saved: how-to-run-the-tests \(id m-[0-9a-f]{12}, project, revision 1\)$/,
        );
      },
    );
  });

  Deno.test(`forget asks a person even in ${mode} mode, and a denial keeps the fact`, async () => {
    const script = [memoryCall("forget", { name: "deploy" }), DONE];
    await withMemorySession(
      script,
      { mode, before: seedDeploy() },
      async ({ sim, controller, store, asked }) => {
        await controller.runTurn("forget the deploy note");
        assert.equal(asked.length, 1);
        assert.equal(asked[0]!.tool, "forget");
        assert.equal(asked[0]!.suggestedRule, null, "no grant can cover a memory change");
        const calls = messages(sim).flatMap((message) => message.tool_calls ?? []);
        assert.equal(asked[0]!.callId, calls[0]!.id, "the card belongs to the call");
        assert.match(asked[0]!.explanation.reason, /forgetting a fact always needs approval/);
        assert.equal(asked[0]!.preview?.kind, "delete");
        assert.equal((await store.list()).length, 1);
        assert.equal(
          toolResults(sim)[0],
          `Error [permission.denied]: The user declined: memory not forgotten "deploy"`,
        );
      },
    );
  });
}

Deno.test("a global fact, a preference, a secret and an oversized fact each ask in yolo mode", async () => {
  const script = [
    {
      toolCalls: [
        memoryCall("remember", {
          ...FACT,
          scope: "global",
          description: "global one",
          body: "Use tabs everywhere",
        }),
        memoryCall("remember", { type: "user", description: "style", body: "The user likes terse answers" }),
        memoryCall("remember", {
          description: "key",
          body: "The staging key is sk-abcdefghijklmnopqrstuvwx",
        }),
        memoryCall("remember", { description: "long", body: "word ".repeat(200) }),
      ].map((reply) => reply.toolCalls![0]!),
    },
    DONE,
  ];
  const answers = (card: { explanation: { reason: string } }) =>
    card.explanation.reason.includes("secret") ? "deny" as const : "allow_once" as const;
  await withMemorySession(
    script,
    { mode: "yolo", answers },
    async ({ controller, store, asked }) => {
      await controller.runTurn("remember these");
      assert.deepEqual(
        asked.map((card) =>
          card.explanation.reason.replace(/^Memory: (.*) \(an approval covers this change only\)$/, "$1")
        ).sort(),
        [
          "global facts reach every project",
          "it is longer than 600 characters",
          "it looks like it holds a secret",
          "it records a preference (type user)",
        ],
      );
      assert.deepEqual((await store.list("global")).map((fact) => fact.body), ["Use tabs everywhere"]);
      assert.deepEqual((await store.list("project")).map((fact) => fact.description).sort(), [
        "long",
        "style",
      ]);
    },
  );
});

Deno.test("an update and a duplicate ask in auto mode; an approved update keeps the old revision", async () => {
  const script = [
    memoryCall("remember", {
      description: "Deploying staging",
      body: "Deploy staging with `make deploy-staging`.",
    }),
    memoryCall("remember", {
      name: "deploy",
      description: "How to deploy staging",
      body: "Use `make ship`.",
    }),
    DONE,
  ];
  const options = {
    mode: "auto" as const,
    before: seedDeploy(),
    answers: ["deny" as const, "allow_once" as const],
  };
  await withMemorySession(script, options, async ({ controller, store, asked }) => {
    await controller.runTurn("update the deploy note");
    assert.match(asked[0]!.explanation.reason, /it repeats "deploy"/);
    assert.match(asked[1]!.explanation.reason, /it changes "deploy" \(revision 1\)/);
    assert.equal(asked[1]!.preview?.kind, "modify");
    const revisions = await store.revisions("m-aaaaaaaaaaaa", "project");
    assert.deepEqual(revisions.map((fact) => [fact.revision, fact.body]), [
      [1, "Deploy staging with `make deploy-staging`."],
      [2, "Use `make ship`."],
    ]);
    assert.equal((await store.list()).length, 1);
  });
});

Deno.test("a headless run fails closed on every memory change, with a clear tool error", async () => {
  const script = [memoryCall("remember", FACT), memoryCall("forget", { name: "deploy" }), DONE];
  await withMemorySession(script, { mode: "yolo", headless: true, before: seedDeploy() }, async (session) => {
    await session.controller.runTurn("remember and forget");
    assert.equal(session.asked.length, 0);
    const results = session.sim.requests.slice(1).map((request) =>
      (request.json.messages as { role: string; content: string }[]).at(-1)!.content
    );
    assert.match(
      results[0]!,
      /^Error \[memory\.needs_approval\]: Not saved: changing memory needs a person, /,
    );
    assert.match(results[1]!, /^Error \[memory\.needs_approval\]: Not forgotten: /);
    assert.deepEqual((await session.store.list()).map((fact) => fact.name), ["deploy"]);
  });
});

Deno.test("memory lists, searches and shows without asking, also headless", async () => {
  const script = [
    memoryCall("memory", { operation: "list" }),
    memoryCall("memory", { operation: "search", query: "deploy staging" }),
    memoryCall("memory", { operation: "show", name: "deploy" }),
    DONE,
  ];
  await withMemorySession(script, { headless: true, before: seedDeploy() }, async ({ sim, controller }) => {
    await controller.runTurn("what do you remember?");
    const results = sim.requests.slice(1).map((request) =>
      (request.json.messages as { role: string; content: string }[]).at(-1)!.content
    );
    assert.match(
      results[0]!,
      /^deploy \(id m-aaaaaaaaaaaa, project, project, revision 1, updated 2026-11-01\)/,
    );
    assert.match(results[1]!, /make deploy-staging/);
    assert.match(results[2]!, /^---\nid: "m-aaaaaaaaaaaa"/);
  });
});

Deno.test("the model's file tools cannot read or write the memory files, even in yolo mode", async () => {
  await withMemorySession([], { mode: "yolo", before: seedDeploy() }, async ({ sim, controller, store }) => {
    const path = `${store.dirOf("project")}/m-aaaaaaaaaaaa.md`;
    sim.push(
      { toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path }) }] },
      { toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path, content: "planted" }) }] },
      DONE,
    );
    await controller.runTurn("read the memory file");
    const results = sim.requests.slice(1).map((request) =>
      (request.json.messages as { role: string; content: string }[]).at(-1)!.content
    );
    assert.match(results[0]!, /^Error \[tool\.(not_found|path_outside_workspace)\]/);
    assert.match(results[1]!, /^Error \[tool\.path_(forbidden|outside_workspace)\]/);
    assert.equal((await store.list())[0]?.body, "Deploy staging with `make deploy-staging`.");
  });
});
