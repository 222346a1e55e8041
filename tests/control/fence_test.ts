import assert from "node:assert/strict";
import { join } from "node:path";
import { resolvePaths } from "../../src/config/paths.ts";
import { fenceFlags } from "../../src/control/fence.ts";

async function fixture(toml: string) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-fence-" }));
  const home = join(root, "home");
  const ws = join(root, "ws");
  const extra = join(root, "extra");
  for (const dir of [home, ws, extra]) await Deno.mkdir(dir);
  await Deno.writeTextFile(join(home, "config.toml"), toml);
  const paths = resolvePaths({ REASONIX_HOME: home });
  return {
    root,
    home,
    ws,
    extra,
    paths,
    flags: (outputs: string[] = [], listen?: { addr?: string }) =>
      fenceFlags({
        cwd: ws,
        addDirs: ["../extra"],
        outputs,
        env: { PATH: Deno.env.get("PATH") ?? "" },
        paths,
        ...(listen ? { listen } : {}),
      }),
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

function list(flags: string[], name: string): string[] | undefined {
  const flag = flags.find((f) => f.startsWith(`${name}=`));
  return flag?.slice(name.length + 1).split(",");
}

const PROVIDER = `
default_model = "p"
[[providers]]
name = "p"
kind = "openai"
base_url = "http://127.0.0.1:4321/v1"
model = "m"
api_key_env = "P_KEY"
`;

Deno.test("fenceFlags() writes only to the workspace, extra roots, Reasonix's own files, cache and outputs", async () => {
  await using fx = await fixture(PROVIDER);
  const flags = await fx.flags(["trace.jsonl"]);
  assert.equal(flags[0], "--no-prompt");
  assert.ok(flags.includes("--allow-read") && flags.includes("--allow-env"));
  assert.equal(fx.paths.stateHome, fx.home);
  assert.deepEqual(
    new Set(list(flags, "--allow-write")),
    new Set([
      fx.ws,
      fx.extra,
      join(fx.home, "trust.json"),
      join(fx.home, ".env"),
      join(fx.home, "mcp-auth"),
      join(fx.home, ".staging"),
      join(fx.home, "sessions"),
      join(fx.home, "archive"),
      join(fx.home, "memory"),
      join(fx.home, "config-warnings.json"),
      join(fx.home, "tmp"),
      fx.paths.cacheDir,
      join(fx.ws, "trace.jsonl"),
    ]),
  );
  const grants = list(flags, "--allow-write")!;
  assert.ok(!grants.includes(fx.home) && !grants.includes(join(fx.home, "config.toml")));
  assert.ok(!flags.includes("--allow-write") && !flags.includes("--allow-run") && !flags.includes("-A"));
});

Deno.test("fenceFlags() runs only the executables the kernel spawns, found on PATH", async () => {
  await using fx = await fixture(PROVIDER);
  const run = list(await fx.flags(), "--allow-run")!;
  const bash = await Deno.realPath(join("/usr/bin", "bash")).catch(() => undefined);
  if (bash) assert.ok(run.includes(bash), run.join(","));
  const names = new Set(run.map((path) => path.split("/").at(-1)));
  for (const name of names) {
    assert.ok(
      [
        "bash",
        "sh",
        "bwrap",
        "rg",
        "git",
        "sandbox-exec",
        "dash",
        "pbcopy",
        "wl-copy",
        "xclip",
        "xsel",
        "deno",
      ]
        .includes(name!),
      name,
    );
  }
});

Deno.test("fenceFlags() lets the kernel start its file agent: this Deno executable, by path and realpath", async () => {
  await using fx = await fixture(PROVIDER);
  const run = list(await fx.flags(), "--allow-run")!;
  if (Deno.build.os !== "linux") return;
  assert.ok(run.includes(Deno.execPath()), run.join(","));
  assert.ok(run.includes(await Deno.realPath(Deno.execPath())), run.join(","));
});

Deno.test("fenceFlags() opens the network for web_fetch, else only the provider hosts", async () => {
  await using open = await fixture(PROVIDER);
  assert.ok((await open.flags()).includes("--allow-net"));
  await using closed = await fixture(PROVIDER + "\n[sandbox]\nnetwork = false\n");
  assert.deepEqual(list(await closed.flags(), "--allow-net"), ["api.deepseek.com", "127.0.0.1:4321"]);
  await using noFetch = await fixture(PROVIDER + '\n[tools]\nenabled = ["read_file", "bash"]\n');
  assert.deepEqual(list(await noFetch.flags(), "--allow-net"), ["api.deepseek.com", "127.0.0.1:4321"]);
});

Deno.test("fenceFlags() lets the kernel start the configured MCP servers, reach their hosts and open a login's browser, not an untrusted project's", async () => {
  const servers = `
[sandbox]
network = false
[[plugins]]
name = "local"
command = "mcp-srv"
[[plugins]]
name = "remote"
type = "http"
url = "http://127.0.0.1:9999/mcp"
`;
  await using box = await fixture(PROVIDER + servers);
  const bin = join(box.root, "bin");
  await Deno.mkdir(bin);
  for (const name of ["mcp-srv", "repo-srv", "mybrowser"]) {
    await Deno.writeTextFile(join(bin, name), "#!/bin/sh\n");
    await Deno.chmod(join(bin, name), 0o755);
  }
  await Deno.writeTextFile(
    join(box.ws, ".mcp.json"),
    JSON.stringify({ mcpServers: { repo: { command: "repo-srv" } } }),
  );
  const flags = (trustProjectMcp: boolean) =>
    fenceFlags({
      cwd: box.ws,
      addDirs: [],
      outputs: [],
      env: { PATH: bin, BROWSER: "mybrowser --new-window %s" },
      paths: box.paths,
      trustProjectMcp,
    });
  const fenced = await flags(false);
  const run = list(fenced, "--allow-run") ?? [];
  assert.ok(run.includes(join(bin, "mcp-srv")), run.join(","));
  // A remote server may need `/mcp login`, which opens the URL with $BROWSER.
  assert.ok(run.includes(join(bin, "mybrowser")), run.join(","));
  assert.ok(!run.includes(join(bin, "repo-srv")), "an untrusted project server's command may not run");
  assert.deepEqual(list(fenced, "--allow-net"), ["api.deepseek.com", "127.0.0.1:4321", "127.0.0.1:9999"]);
  assert.ok((list(await flags(true), "--allow-run") ?? []).includes(join(bin, "repo-srv")));
});

Deno.test("fenceFlags() lets serve listen on its host, any port, and nothing more", async () => {
  await using closed = await fixture(PROVIDER + "\n[sandbox]\nnetwork = false\n");
  const hosts = ["api.deepseek.com", "127.0.0.1:4321"];
  assert.deepEqual(list(await closed.flags([], { addr: "127.0.0.1:0" }), "--allow-net"), [
    ...hosts,
    "127.0.0.1",
  ]);
  assert.deepEqual(list(await closed.flags([], { addr: "[::1]:8787" }), "--allow-net"), [...hosts, "[::1]"]);
  assert.deepEqual(
    list(await closed.flags([], {}), "--allow-net"),
    [...hosts, "127.0.0.1"],
    "[serve] addr default",
  );
  await using configured = await fixture(
    PROVIDER + '\n[sandbox]\nnetwork = false\n[serve]\naddr = ":9000"\n',
  );
  assert.deepEqual(list(await configured.flags([], {}), "--allow-net"), [...hosts, "0.0.0.0"]);
});
