/**
 * @module
 * `reasonix subagent list|create|edit|delete` (`try|run` are in run/subagent_command.ts): subagent profiles (skills with `runAs: subagent`) as files.
 * Parsing here; the work in control/subagent_admin.ts. Names, descriptions and paths are printed escaped.
 */
import { Command, Option } from "commander";
import type { ProfileSpec } from "../../control/mod.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { escapeControls } from "../../lib/terminal_text.ts";

type Opts = Record<string, unknown>;

/** Loaded when an action runs: `--help` and every other command never load the Controller's modules. */
async function admin(opts: Opts) {
  const control = await import("../../control/mod.ts");
  return { control, ctx: await control.adminContext(opts.dir as string | undefined) };
}

export function subagentCommand(): Command {
  const root = new Command("subagent").description(
    "Manage subagent profiles (skills that run as a subagent)",
  );
  root.command("list").description("Every subagent profile, where it comes from, and its settings")
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(listCmd);
  profileOptions(root.command("create").description("Write a new profile as a skill file"))
    .argument("<name>", "the profile's name (lower-case letters, digits, - and _)")
    .addOption(
      new Option("--scope <scope>", "where to write it").choices(["project", "global"]).default("project"),
    )
    .action(async (name: string, opts: Opts) => {
      const { control, ctx } = await admin(opts);
      const scope = opts.scope as "project" | "global";
      const path = await control.subagentCreate(ctx, name, { ...await spec(opts), scope });
      console.log(`Created ${escapeControls(path)}`);
    });
  profileOptions(root.command("edit").description("Change a project or user profile; unnamed settings stay"))
    .argument("<name>", "the profile to change")
    .action(async (name: string, opts: Opts) => {
      const { control, ctx } = await admin(opts);
      console.log(`Updated ${escapeControls(await control.subagentEdit(ctx, name, await spec(opts)))}`);
    });
  root.command("delete").description("Delete a project or user profile's file")
    .argument("<name>", "the profile to delete").option("--yes", "confirm the deletion")
    .option("--dir <path>", "workspace directory")
    .action(async (name: string, opts: Opts) => {
      if (!opts.yes) {
        throw new ReasonixError("usage.confirm", `Deleting profile "${name}" needs --yes`);
      }
      const { control, ctx } = await admin(opts);
      console.log(`Deleted ${escapeControls(await control.subagentDelete(ctx, name))}`);
    });
  return root;
}

function profileOptions(command: Command): Command {
  return command
    .option("--description <text>", "one line: what the profile is for")
    .option("--prompt <text>", "the profile's instructions (its whole system prompt)")
    .option("--prompt-file <path>", "read the instructions from this file")
    .option("--model <ref>", "the model it runs on")
    .option("--effort <level>", "its reasoning effort")
    .option("--tools <names>", "only these tools, comma separated (narrows, never widens)")
    .option("--read-only", "never give it a writer tool")
    .option("--dir <path>", "workspace directory");
}

async function spec(opts: Opts): Promise<ProfileSpec> {
  if (opts.prompt !== undefined && opts.promptFile !== undefined) {
    throw new ReasonixError("usage.conflicting_options", "Cannot combine --prompt with --prompt-file");
  }
  const prompt = opts.promptFile !== undefined
    ? await Deno.readTextFile(String(opts.promptFile))
    : opts.prompt as string | undefined;
  const tools = typeof opts.tools === "string"
    ? opts.tools.split(/[,\s]+/).filter((tool) => tool !== "")
    : undefined;
  return {
    ...(opts.description !== undefined ? { description: String(opts.description) } : {}),
    ...(prompt !== undefined ? { prompt } : {}),
    ...(opts.model !== undefined ? { model: String(opts.model) } : {}),
    ...(opts.effort !== undefined ? { effort: String(opts.effort) } : {}),
    ...(tools ? { tools } : {}),
    ...(opts.readOnly ? { readOnly: true } : {}),
  };
}

async function listCmd(opts: Opts): Promise<void> {
  const { control, ctx } = await admin(opts);
  const profiles = await control.subagentList(ctx);
  if (opts.json) {
    const rows = profiles.map(({ body: _body, ...profile }) => profile);
    return console.log(JSON.stringify({ schema_version: 1, command: "subagent.list", profiles: rows }));
  }
  const width = Math.max(...profiles.map((profile) => profile.name.length));
  for (const profile of profiles) {
    const settings = [
      profile.readOnly ? "read-only" : "writer",
      ...(profile.model ? [`model ${profile.model}`] : []),
      ...(profile.effort ? [`effort ${profile.effort}`] : []),
      ...(profile.allowedTools ? [`tools ${profile.allowedTools.join(",")}`] : []),
    ];
    console.log(escapeControls(`${profile.name.padEnd(width)}  ${profile.description}`));
    console.log(
      escapeControls(`${" ".repeat(width)}  ${settings.join(" · ")} · ${profile.source} · ${profile.path}`),
    );
  }
}
