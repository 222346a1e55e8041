/**
 * @module
 * The session commands: `/new`, `/clear`, `/resume`, `/rename`, `/model`, `/effort` (and, from
 * session_export.ts, `/export` and `/copy`). Switching goes through the host's `SessionControl`.
 */
import { errorFields, errorMessage } from "../../lib/errors.ts";
import { t } from "../../lib/i18n/mod.ts";
import { normalizeEffort } from "../../provider/effort.ts";
import type { Effort } from "../../provider/provider.ts";
import type { DetailedSession } from "../../session/details.ts";
import type { ModelChoice, SessionControl } from "../session_switch.ts";
import { choiceList, listingText, pickSession, sessionLabel, turnCount } from "../session_pick.ts";
import type { CommandContext, SlashCommand } from "./registry.ts";
import { copyCommand, exportCommand } from "./session_export.ts";

const EFFORTS: readonly Effort[] = ["auto", "disabled", "low", "high", "max"];
const AMBIGUOUS_SHOWN = 5;

export function sessionCommands(): SlashCommand[] {
  return [
    newCommand,
    clearCommand,
    resumeCommand,
    renameCommand,
    modelCommand,
    effortCommand,
    exportCommand,
    copyCommand,
  ];
}

/** Runs `work` with the host's session control, or says this face cannot switch sessions. */
async function switching(ctx: CommandContext, work: (sessions: SessionControl) => Promise<void>) {
  const sessions = ctx.host.sessions;
  if (!sessions) return ctx.print(t("session.unavailable"));
  try {
    await work(sessions);
  } catch (error) {
    ctx.print(t("session.failed", { message: errorMessage(error) }));
  }
}

const newCommand: SlashCommand = {
  name: "new",
  aliases: [],
  get summary() {
    return t("session.cmd_new");
  },
  usage: "/new",
  run: (ctx) =>
    switching(ctx, async (sessions) => {
      const previous = ctx.host.sessionId;
      await sessions.newSession();
      ctx.print(t("session.saved", { id: previous }));
    }),
};

const clearCommand: SlashCommand = {
  name: "clear",
  aliases: [],
  get summary() {
    return t("session.cmd_clear");
  },
  usage: "/clear",
  run: (ctx) =>
    switching(ctx, async (sessions) => {
      const previous = ctx.host.sessionId;
      await sessions.newSession();
      ctx.clearScreen?.();
      ctx.print(t("session.cleared", { id: previous }));
    }),
};

const resumeCommand: SlashCommand = {
  name: "resume",
  aliases: [],
  get summary() {
    return t("session.cmd_resume");
  },
  usage: "/resume [number|id|text]",
  run: (ctx, args) =>
    switching(ctx, async (sessions) => {
      const listed = await sessions.recentSessions();
      if (!args && ctx.choose && listed.length > 0) {
        const index = await ctx.choose(choiceList(listed, ctx.host.sessionId, new Date()));
        if (index === null) return;
        return await resumeOne(ctx, sessions, listed[index]!);
      }
      if (!args) return ctx.print(listingText(listed, ctx.host.sessionId, new Date()));
      const pick = pickSession(listed, args);
      if (pick.kind === "none") return ctx.print(t("session.not_found", { query: args }));
      if (pick.kind === "ambiguous") {
        const ids = pick.matches.slice(0, AMBIGUOUS_SHOWN).map((session) => session.id).join(", ");
        return ctx.print(t("session.ambiguous", { query: args, count: pick.matches.length, ids }));
      }
      await resumeOne(ctx, sessions, pick.session);
    }),
};

async function resumeOne(ctx: CommandContext, sessions: SessionControl, session: DetailedSession) {
  if (session.id === ctx.host.sessionId) return ctx.print(t("session.already_current", { id: session.id }));
  await sessions.resume(session.file);
  ctx.print(t("session.resumed", { label: sessionLabel(session), turns: turnCount(session.turns) }));
}

const renameCommand: SlashCommand = {
  name: "rename",
  aliases: [],
  get summary() {
    return t("session.cmd_rename");
  },
  usage: "/rename <title>",
  async run(ctx, args) {
    const title = args.replace(/\s+/g, " ").trim();
    if (!title) return ctx.print(t("session.rename_usage"));
    await ctx.host.rename(title);
    ctx.print(t("session.renamed", { title }));
  },
};

const modelCommand: SlashCommand = {
  name: "model",
  aliases: [],
  get summary() {
    return t("session.cmd_model");
  },
  usage: "/model [name]",
  run: (ctx, args) =>
    switching(ctx, async (sessions) => {
      const choices = await sessions.models();
      if (!args) {
        const lines = choices.map((choice) => `${choice.current ? "*" : " "} ${choice.ref}`);
        return ctx.print([t("session.model_list"), ...lines, t("session.model_hint")].join("\n"));
      }
      const named = choices.find((choice) => [choice.ref, choice.provider, choice.model].includes(args));
      if (!named) return ctx.print(unknownModelText(args, choices));
      if (named.current) return ctx.print(t("session.model_unchanged", { model: named.ref }));
      try {
        await sessions.switchModel(args);
      } catch (error) {
        return ctx.print(modelFailedText(args, error));
      }
      ctx.print(t("session.model_switched", { model: ctx.host.model }));
    }),
};

function unknownModelText(wanted: string, choices: readonly ModelChoice[]): string {
  const known = choices.length ? choices.map((choice) => choice.ref).join(", ") : t("sandbox.none");
  return `${t("session.model_unknown", { model: wanted, known })}\n${t("session.model_unknown_hint")}`;
}

/** What failed (a missing key, an untrusted provider, a busy session) and what to do, from the boot error. */
function modelFailedText(wanted: string, error: unknown): string {
  const { message, hint } = errorFields(error);
  const text = t("session.model_failed", {
    model: wanted,
    message: error instanceof Error ? error.message : message,
  });
  return hint ? `${text}\n${hint}` : text;
}

const effortCommand: SlashCommand = {
  name: "effort",
  aliases: [],
  get summary() {
    return t("session.cmd_effort");
  },
  usage: "/effort [auto|disabled|low|high|max]",
  argumentChoices: EFFORTS,
  run(ctx, args) {
    if (!args) return ctx.print(t("session.effort_show", { effort: ctx.host.effort }));
    let effort: Effort;
    try {
      effort = normalizeEffort(args);
    } catch {
      return ctx.print(t("session.effort_usage", { value: args, choices: EFFORTS.join(", ") }));
    }
    ctx.host.setEffort(effort);
    ctx.print(t("session.effort_set", { effort }));
  },
};
