/**
 * @module
 * `reasonix serve`: its options, and the server run until a stop signal (docs/SERVE.md, ./signals.ts).
 */
import { Command } from "commander";
import { launchDirectory } from "../../config/paths.ts";
import type { ToolSpec } from "../../tool/tool.ts";
import { runFlags } from "../../config/run_flags.ts";
import { writeAll } from "../../lib/write_all.ts";
import { onStopSignals, type StopSignal } from "../../sandbox/stop_signals.ts";

/** `exit` gets the error code of the stop signal that ended the server (null: none). */
export function serveCommand(
  embedding: { extraTools?: readonly ToolSpec[] },
  exit: (code: string | null) => void,
): Command {
  return new Command("serve").description("Serve sessions over HTTP and server-sent events")
    .option("--addr <host:port>", "address to listen on (default [serve] addr, 127.0.0.1:8787)")
    .option("--auth <mode>", "none (loopback only), token (default) or password")
    .option("--token <token>", "the token for --auth token (default: [serve] token, else generated)")
    .option("--password-hash <hash>", "bcrypt hash for --auth password (default: [serve] password_hash)")
    .option("--hash-password", "read a password (prompt or stdin), print its bcrypt hash and exit")
    .option("--port-file <path>", "write the port it listens on to this file (with --addr HOST:0)")
    .option("--model <ref>", "provider name, model name, or provider/model for new sessions")
    .option("--permission-mode <mode>", "ask (default), auto, yolo or plan")
    .option("--dir <path>", "workspace directory (default: the current directory)")
    .action(async (opts: Record<string, unknown>) => {
      const { serveCmd } = await import("./mod.ts");
      const encoder = new TextEncoder();
      // The first stop signal stops the server: running turns are interrupted and recorded, sessions closed.
      const { promise: stopped, resolve } = Promise.withResolvers<StopSignal>();
      const remove = onStopSignals(resolve);
      const code = await serveCmd({
        boot: {
          cwd: launchDirectory(),
          ...(opts.dir ? { dir: String(opts.dir) } : {}),
          flags: { ...runFlags(opts), addDirs: [], allowedTools: [] },
          ...(embedding.extraTools ? { extraTools: embedding.extraTools } : {}),
        },
        ...(["addr", "auth", "token", "passwordHash", "portFile"] as const).reduce(
          (picked, key) => opts[key] === undefined ? picked : { ...picked, [key]: String(opts[key]) },
          {},
        ),
        hashPassword: Boolean(opts.hashPassword),
        write: (text) => writeAll(Deno.stdout, encoder.encode(text)),
        writeError: (text) => writeAll(Deno.stderr, encoder.encode(text)),
        stopped,
      }).finally(remove);
      exit(code);
    });
}
