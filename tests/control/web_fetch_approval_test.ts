/**
 * Per-domain approval of web_fetch through a real Controller, the real tool and a real server. The
 * server is on loopback, so the user config lists 127.0.0.1 and localhost as reachable private hosts;
 * the domain approval is what these tests exercise.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ApprovalChoice, ApprovalRequest, ReasonixEvent } from "../../src/control/events.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { type Controller, withController } from "../support/controller_session.ts";
import { toolResults } from "../support/sim_messages.ts";

interface Session {
  sim: DeepSeekSim;
  controller: Controller;
  home: string;
  ws: string;
  seen: string[];
  base: string;
}

interface SessionOptions {
  mode?: string;
  headless?: boolean;
  toml?: string;
}

/** `/to?url=…` redirects there; anything else answers "page". */
function serve(seen: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    seen.push(`${request.headers.get("host")}${url.pathname}`);
    const target = url.searchParams.get("url");
    if (target !== null) return new Response(null, { status: 302, headers: { location: target } });
    return new Response("page", { headers: { "content-type": "text/plain" } });
  });
}

async function withSession(
  script: (base: string) => ScriptedReply[],
  options: SessionOptions,
  body: (session: Session) => Promise<void>,
) {
  const seen: string[] = [];
  const server = serve(seen);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const extraToml = `[tools]\nweb_fetch_allow_private = ["127.0.0.1", "localhost"]\n${options.toml ?? ""}`;
  try {
    await withController({
      script: script(base),
      extraToml,
      files: { "a.txt": "alpha\n" },
      headless: options.headless ?? false,
      flags: options.mode ? { permissionMode: options.mode } : {},
      listen: false,
    }, async ({ sim, controller, home, ws }) => {
      await body({ sim, controller, home, ws, seen, base });
    });
  } finally {
    await server.shutdown();
  }
}

/** web_fetch is reached through use_capability, as the model reaches it: the approvals are the same. */
function fetchCall(url: string): ScriptedReply {
  const args = { action: "call", capability_id: "tool:web_fetch", arguments: { url } };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(args) }] };
}

const DONE = { content: "done" };

function answerWith(controller: Controller, choices: ApprovalChoice[]): ApprovalRequest[] {
  const asked: ApprovalRequest[] = [];
  controller.subscribe((event: ReasonixEvent) => {
    if (event.type !== "approval_requested") return;
    asked.push(event.request);
    const choice = choices.shift() ?? "deny";
    queueMicrotask(() => void controller.answerApproval(event.request.id, choice));
  });
  return asked;
}

Deno.test("web_fetch asks per domain in ask mode and remembers allow_always as WebFetch(domain:…)", async () => {
  const script = (base: string) => [fetchCall(`${base}/one`), fetchCall(`${base}/two`), DONE];
  await withSession(script, { mode: "read-only" }, async ({ sim, controller, home, ws, seen }) => {
    const asked = answerWith(controller, ["allow_always"]);
    await controller.runTurn("read two pages");
    assert.equal(asked.length, 1, "the second call to the same host is covered");
    assert.equal(asked[0]!.suggestedRule, "WebFetch(domain:127.0.0.1)");
    assert.equal(asked[0]!.subject, "domain:127.0.0.1");
    assert.equal(
      asked[0]!.explanation.reason,
      `"web_fetch" would send a request to "127.0.0.1", a host no rule allows yet`,
    );
    const trust = JSON.parse(await Deno.readTextFile(join(home, "trust.json")));
    assert.deepEqual(trust.permissionGrants[ws].map((grant: { rule: string }) => grant.rule), [
      "WebFetch(domain:127.0.0.1)",
    ]);
    assert.equal(seen.length, 2);
    assert.ok(toolResults(sim).every((result) => result.endsWith("page")));
  });
});

Deno.test("web_fetch fails closed headless in ask mode, naming the --allowed-tools rule", async () => {
  const script = (base: string) => [fetchCall(`${base}/one`), DONE];
  await withSession(script, { mode: "read-only", headless: true }, async ({ sim, controller, seen }) => {
    await controller.runTurn("read a page");
    assert.equal(
      toolResults(sim)[0],
      `Error [permission.needs_approval]: Not run (web_fetch): "web_fetch" would send a request to ` +
        `"127.0.0.1", a host no rule allows yet; it needs approval, but nobody can answer in a headless ` +
        `run: pass --permission-mode auto (or --yolo) or allow it with --allowed-tools ` +
        `'WebFetch(domain:127.0.0.1)' (or [permissions] allow)`,
    );
    assert.deepEqual(seen, []);
  });
});

Deno.test("web_fetch does not follow a redirect to a host no rule allows", async () => {
  const toml = `[permissions]\nallow = ["WebFetch(domain:127.0.0.1)"]\n`;
  let target = "";
  const script = (base: string) => {
    target = `http://localhost:${new URL(base).port}/elsewhere`;
    return [fetchCall(`${base}/to?url=${encodeURIComponent(target)}`), DONE];
  };
  await withSession(script, { mode: "read-only", toml }, async ({ sim, controller, seen, base }) => {
    const asked = answerWith(controller, []);
    await controller.runTurn("follow a redirect");
    assert.equal(asked.length, 0);
    const result = toolResults(sim)[0]!;
    assert.ok(result.startsWith("Error [tool.redirect_refused]: Cannot follow the redirect from "), result);
    assert.ok(result.includes(`to "${target}": "web_fetch" would send a request to "localhost"`), result);
    assert.equal(seen.length, 1);
    assert.ok(seen[0]!.startsWith(`${new URL(base).host}/to`));
  });
});

Deno.test("web_fetch in auto mode allows a new host without asking; private hosts stay refused", async () => {
  const script = (
    base: string,
  ) => [fetchCall(`${base}/one`), fetchCall("http://169.254.169.254/latest/"), DONE];
  await withSession(script, { mode: "auto" }, async ({ sim, controller, seen }) => {
    const asked = answerWith(controller, []);
    await controller.runTurn("read");
    assert.equal(asked.length, 0);
    const [page, metadata] = toolResults(sim);
    assert.ok(page!.endsWith("page"));
    assert.match(
      metadata!,
      /^Error \[tool\.private_address\]: .*169\.254\.169\.254 is a cloud metadata address/,
    );
    assert.equal(seen.length, 1);
  });
});
