/**
 * `reasonix mcp` through the real CLI: add and remove edit only their own entry of config.toml, `--help`
 * changes nothing, and a project's `.mcp.json` server never starts until `reasonix mcp trust` approved
 * its exact definition (or `--trust-project-mcp` allows it for one run).
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { makeWorkspace, removeAll, runCli } from "../support/cli.ts";

const CRASH_SERVER = resolve(import.meta.dirname!, "../fixtures/mcp/crash_server.ts");
const USER_CONFIG = `# my settings
default_model = "deepseek-flash"   # keep this comment

[tools]
bash_timeout_seconds = 60

[[plugins]]
name = "kept"
command = "kept-server"
`;

async function emptyHome(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "reasonix-home-" });
}

Deno.test("reasonix mcp add/remove edit only their own [[plugins]] entry of config.toml", async () => {
  const home = await emptyHome();
  const ws = await makeWorkspace({});
  const config = join(home, "config.toml");
  try {
    await Deno.writeTextFile(config, USER_CONFIG);
    const added = await runCli(
      ["mcp", "add", "files", "--env", "ROOT=/srv", "--", "npx", "-y", "some-server", "--help"],
      { home, cwd: ws },
    );
    assert.equal(added.code, 0, added.stderr);
    assert.equal(
      await Deno.readTextFile(config),
      USER_CONFIG +
        `\n[[plugins]]\nname = "files"\ncommand = "npx"\nargs = ["-y", "some-server", "--help"]\nenv = { ROOT = "/srv" }\n`,
    );
    const remote = await runCli(
      ["mcp", "add", "remote", "--sse", "https://mcp.example.com/sse", "--header", "X-Team=core"],
      { home, cwd: ws },
    );
    assert.equal(remote.code, 0, remote.stderr);
    const list = await runCli(["mcp", "list", "--json"], { home, cwd: ws });
    assert.equal(list.code, 0, list.stderr);
    const servers = JSON.parse(list.stdout) as { name: string; type: string; trust: string }[];
    assert.deepEqual(servers.map((s) => [s.name, s.type, s.trust]), [
      ["kept", "stdio", "user"],
      ["files", "stdio", "user"],
      ["remote", "sse", "user"],
    ]);
    const duplicate = await runCli(["mcp", "add", "kept", "--", "x"], { home, cwd: ws });
    assert.equal(duplicate.code, 1);
    assert.match(duplicate.stderr, /already declares it/);
    for (const name of ["files", "remote"]) {
      const removed = await runCli(["mcp", "remove", name], { home, cwd: ws });
      assert.equal(removed.code, 0, removed.stderr);
    }
    assert.equal(await Deno.readTextFile(config), USER_CONFIG, "byte for byte as before");
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("reasonix mcp add --help and a wrong add change nothing", async () => {
  const home = await emptyHome();
  const ws = await makeWorkspace({});
  try {
    const help = await runCli(["mcp", "add", "x", "--help"], { home, cwd: ws });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage: reasonix mcp add/);
    const both = await runCli(["mcp", "add", "x", "--http", "https://a.example.com", "--", "cmd"], {
      home,
      cwd: ws,
    });
    assert.equal(both.code, 2);
    const neither = await runCli(["mcp", "add", "x"], { home, cwd: ws });
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /give a command or a URL/);
    assert.deepEqual([...Deno.readDirSync(home)], [], "no file was written");
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("reasonix mcp tools refuses an unapproved .mcp.json server, and starts it once trusted", async () => {
  const home = await emptyHome();
  const marker = "server-ran";
  const definition = (extra: string[]) =>
    JSON.stringify({
      mcpServers: {
        proj: {
          command: "bash",
          args: [
            "-c",
            `touch ${marker}; exec "$0" run -A --quiet "$1"`,
            Deno.execPath(),
            CRASH_SERVER,
            ...extra,
          ],
        },
      },
    });
  const ws = await makeWorkspace({ ".mcp.json": definition([]) });
  const ran = async () => await Deno.stat(join(ws, marker)).then(() => true, () => false);
  try {
    const refused = await runCli(["mcp", "tools", "proj"], { home, cwd: ws });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /MCP server "proj" from \.mcp\.json is not trusted in this workspace/);
    assert.match(refused.stderr, /`reasonix mcp trust proj`/);
    assert.equal(await ran(), false, "the repository's command never ran");

    const once = await runCli(["mcp", "tools", "proj", "--trust-project-mcp"], { home, cwd: ws });
    assert.equal(once.code, 0, once.stderr);
    assert.match(once.stdout, /^mcp__proj__echo {2}Echoes its text$/m);
    await Deno.remove(join(ws, marker));
    assert.equal((await runCli(["mcp", "tools", "proj"], { home, cwd: ws })).code, 1, "nothing was recorded");

    const unasked = await runCli(["mcp", "trust", "proj"], { home, cwd: ws });
    assert.equal(unasked.code, 2);
    assert.match(unasked.stderr, /reasonix mcp trust proj --yes/);
    const trusted = await runCli(["mcp", "trust", "proj", "--yes"], { home, cwd: ws });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(trusted.stdout, /Trusted: MCP server "proj"/);
    const tools = await runCli(["mcp", "tools", "proj", "--json"], { home, cwd: ws });
    assert.equal(tools.code, 0, tools.stderr);
    assert.deepEqual(JSON.parse(tools.stdout).map((t: { name: string }) => t.name).sort(), [
      "crash",
      "echo",
      "shout",
      "sleep",
    ]);

    await Deno.remove(join(ws, marker));
    await Deno.writeTextFile(join(ws, ".mcp.json"), definition(["--announce"]));
    const changed = await runCli(["mcp", "tools", "proj"], { home, cwd: ws });
    assert.equal(changed.code, 1);
    assert.match(changed.stderr, /changed since you trusted it/);
    assert.equal(await ran(), false);
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("reasonix mcp list shows a repository's terminal controls as visible marks", async () => {
  const home = await emptyHome();
  const ws = await makeWorkspace({
    ".mcp.json": JSON.stringify({ mcpServers: { evil: { command: "x\u001b]0;pwned\u0007\u001b[2J" } } }),
  });
  try {
    const list = await runCli(["mcp", "list"], { home, cwd: ws });
    assert.equal(list.code, 0, list.stderr);
    assert.ok(!list.stdout.includes("\u001b"));
    assert.match(list.stdout, /^evil: x␛\]0;pwned␇␛\[2J \(stdio\) - .*not trusted/m);
    const json = await runCli(["mcp", "list", "--json"], { home, cwd: ws });
    assert.ok(!json.stdout.includes("\u001b"));
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("reasonix mcp get shows which variables a server sends, never a literal credential", async () => {
  const home = await emptyHome();
  const headers = { Authorization: "Bearer ${GITHUB_TOKEN}", "X-Api-Key": "literal-secret-value" };
  const ws = await makeWorkspace({
    ".mcp.json": JSON.stringify({ mcpServers: { gh: { url: "https://mcp.example.com/mcp", headers } } }),
  });
  try {
    const get = await runCli(["mcp", "get", "gh"], {
      home,
      cwd: ws,
      env: { GITHUB_TOKEN: "ghp_not_printed" },
    });
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, /^ {2}headers Authorization=Bearer \$\{GITHUB_TOKEN\}$/m);
    assert.match(get.stdout, /^ {2}headers X-Api-Key=\[redacted\]$/m);
    assert.match(get.stdout, /^ {2}reads from the environment: GITHUB_TOKEN$/m);
    assert.match(get.stdout, /not trusted: run `reasonix mcp trust gh`/);
    assert.doesNotMatch(get.stdout, /literal-secret-value|ghp_not_printed/);
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("reasonix mcp import copies a Claude Desktop config's servers, keeping names already declared", async () => {
  const home = await emptyHome();
  const ws = await makeWorkspace({
    "claude_desktop_config.json": JSON.stringify({
      globalShortcut: "",
      mcpServers: {
        kept: { command: "other" },
        github: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: { TOKEN: "${GH}" },
        },
        docs: { type: "http", url: "https://docs.example.com/mcp" },
      },
    }),
  });
  const config = join(home, "config.toml");
  try {
    await Deno.writeTextFile(config, USER_CONFIG);
    const help = await runCli(["mcp", "import", "claude_desktop_config.json", "--help"], { home, cwd: ws });
    assert.equal(help.code, 0, help.stderr);
    assert.equal(await Deno.readTextFile(config), USER_CONFIG, "--help imported nothing");
    const imported = await runCli(["mcp", "import", "claude_desktop_config.json"], { home, cwd: ws });
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(
      imported.stdout,
      `Imported MCP server "github"\nImported MCP server "docs"\nSkipped "kept": ${config} already declares it\n`,
    );
    assert.equal(
      await Deno.readTextFile(config),
      USER_CONFIG + `\n[[plugins]]\nname = "github"\ncommand = "npx"\n` +
        `args = ["-y", "@modelcontextprotocol/server-github"]\nenv = { TOKEN = "\${GH}" }\n` +
        `\n[[plugins]]\nname = "docs"\ntype = "http"\nurl = "https://docs.example.com/mcp"\n`,
    );
  } finally {
    await removeAll(home, ws);
  }
});
