/**
 * Spawns `reasonix acp` (main.ts, as an editor would: stdin/stdout are the protocol) with an isolated
 * home, and connects the ACP SDK's client side to it.
 */
import * as acp from "@agentclientprotocol/sdk";
import { cliEnv, MAIN_TS } from "./cli.ts";

export interface AcpProcess {
  child: Deno.ChildProcess;
  stream: acp.Stream;
  /** Everything the agent wrote to stderr so far. */
  stderr(): string;
  /** Closes stdin and waits for the agent to exit; returns its exit code. */
  close(): Promise<number>;
}

export function spawnAcp(
  options: { home: string; cwd: string; args?: string[]; env?: Record<string, string>; entry?: string },
): AcpProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", options.entry ?? MAIN_TS, ...(options.args ?? ["acp"])],
    cwd: options.cwd,
    env: cliEnv(options.home, options.env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let errText = "";
  const errDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (errText += chunk) }),
  );
  let stream: acp.Stream | undefined;
  return {
    child,
    // Made on first use: a raw test reads stdout itself.
    get stream() {
      return stream ??= acp.ndJsonStream(child.stdin, child.stdout);
    },
    stderr: () => errText,
    async close() {
      await child.stdin.close().catch(() => {});
      const status = await child.status;
      await errDone.catch(() => {});
      if (!stream) await child.stdout.cancel().catch(() => {});
      return status.code;
    },
  };
}

/** Sends one text prompt; resolves with the turn's response once it ends. */
export function promptText(
  ctx: acp.ClientContext,
  sessionId: string,
  text: string,
): Promise<acp.PromptResponse> {
  return ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
}

/** Opens a session in `cwd` without MCP servers and runs one text prompt; returns the session id. */
export async function promptNewSession(ctx: acp.ClientContext, cwd: string, text: string): Promise<string> {
  const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  await promptText(ctx, sessionId, text);
  return sessionId;
}

/** Every `session/update` a client received, in order, by session. */
export class UpdateLog {
  readonly updates: acp.SessionNotification[] = [];
  #waiters: { test: (u: acp.SessionUpdate) => boolean; resolve: () => void }[] = [];

  add(notification: acp.SessionNotification): void {
    this.updates.push(notification);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.test(notification.update)) return true;
      waiter.resolve();
      return false;
    });
  }

  of(sessionId: string): acp.SessionUpdate[] {
    return this.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  }

  /** Resolves when an update passing `test` arrives (or has arrived). */
  until(test: (update: acp.SessionUpdate) => boolean): Promise<void> {
    if (this.updates.some((n) => test(n.update))) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiters.push({ test, resolve });
    return promise;
  }
}

export function textOf(updates: acp.SessionUpdate[], kind: acp.SessionUpdate["sessionUpdate"]): string {
  return updates.filter((u) => u.sessionUpdate === kind).map((u) => {
    const content = "content" in u ? u.content : null;
    return content && !Array.isArray(content) && content.type === "text" ? content.text : "";
  }).join("");
}
