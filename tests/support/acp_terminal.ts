/**
 * The terminal side of a test editor: `terminal/*` requests run real processes, started the way an
 * editor starts them, from its own environment (plus `extraEnv`, e.g. a credential the editor holds)
 * with the request's `env` on top. Every request is logged.
 */
import * as acp from "@agentclientprotocol/sdk";

interface Running {
  child: Deno.ChildProcess;
  output: string;
  done: Promise<Deno.CommandStatus>;
}

export class TestTerminals {
  readonly calls: string[] = [];
  readonly created: acp.CreateTerminalRequest[] = [];
  readonly #running = new Map<string, Running>();

  constructor(readonly extraEnv: Record<string, string> = {}) {}

  register<T extends acp.ClientApp>(app: T): T {
    app.onRequest(acp.methods.client.terminal.create, ({ params }) => this.#create(params));
    app.onRequest(acp.methods.client.terminal.output, ({ params }) => {
      this.calls.push("output");
      const run = this.#get(params.terminalId);
      return { output: run.output, truncated: false };
    });
    app.onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => {
      this.calls.push("wait_for_exit");
      const status = await this.#get(params.terminalId).done;
      return { exitCode: status.signal ? null : status.code, signal: status.signal };
    });
    app.onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      this.calls.push("kill");
      try {
        this.#get(params.terminalId).child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      return {};
    });
    app.onRequest(acp.methods.client.terminal.release, async ({ params }) => {
      this.calls.push("release");
      const run = this.#get(params.terminalId);
      this.#running.delete(params.terminalId);
      await run.done;
      return {};
    });
    return app;
  }

  #create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    this.calls.push("create");
    this.created.push(params);
    const env = { ...Deno.env.toObject(), ...this.extraEnv };
    for (const entry of params.env ?? []) env[entry.name] = entry.value;
    const child = new Deno.Command(params.command, {
      args: params.args ?? [],
      cwd: params.cwd ?? undefined,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const run: Running = { child, output: "", done: child.status };
    const pump = (stream: ReadableStream<Uint8Array>) =>
      stream.pipeThrough(new TextDecoderStream()).pipeTo(
        new WritableStream({ write: (chunk) => void (run.output += chunk) }),
      );
    run.done = Promise.all([pump(child.stdout), pump(child.stderr)]).then(() => child.status);
    const id = `term-${this.created.length}`;
    this.#running.set(id, run);
    return { terminalId: id };
  }

  #get(id: string): Running {
    const run = this.#running.get(id);
    if (!run) throw acp.RequestError.resourceNotFound(id);
    return run;
  }
}
