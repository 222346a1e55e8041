/**
 * @module
 * The Controller's own session switching (`/new`, `/clear`, `/resume`, `/model`). The next session's
 * parts are booted before the current ones are let go, so a failed boot leaves the session as it was;
 * the Controller then adopts them and keeps its listeners.
 */
import { type ConfigFlags, loadConfig } from "../config/load.ts";
import type { Paths } from "../config/paths.ts";
import type { PermissionMode } from "../config/types.ts";
import type { Effort } from "../provider/provider.ts";
import { listWorkspaceSessions, type SessionListing } from "../session/listing.ts";
import type { ControllerParts } from "./controller_parts.ts";
import type { ReasonixEvent } from "./events.ts";

export interface ModelChoice {
  /** `provider/model`, accepted by `/model` and `--model`. */
  ref: string;
  provider: string;
  model: string;
  current: boolean;
}

/** What the session commands (`/new`, `/resume`, `/model`…) need beyond the current session. */
export interface SessionControl {
  newSession(): Promise<void>;
  /** Switches to the session stored in `file`. */
  resume(file: string): Promise<void>;
  /** Re-boots the same session with another model (its provider cache starts cold). */
  switchModel(ref: string): Promise<void>;
  /** This workspace's sessions, newest first, with titles and turn counts. */
  /** This workspace's sessions, newest activity first, with titles, turn counts and cost. */
  recentSessions(): Promise<SessionListing[]>;
  models(): Promise<ModelChoice[]>;
}

export type BootChange = { flags: ConfigFlags; resume?: { kind: "query"; query: string } };

/** How to boot another session like the first one; boot.ts supplies it to a switchable Controller. */
export interface Reboot {
  paths: Paths;
  flags: ConfigFlags;
  boot(change: BootChange): Promise<ControllerParts>;
}

/** What switching reads from the Controller (the Controller itself). */
export interface SwitchInfo {
  readonly providerName: string;
  readonly model: string;
  readonly permissionMode: PermissionMode;
  readonly sessionFile: string;
  readonly sessionWritten: boolean;
  readonly workspaceRoot: string;
  readonly lastSeq: number;
}

/** What switching asks of the Controller. */
export interface SwitchHooks {
  /** The effort the person chose with `/effort`, carried into every session booted next. */
  chosenEffort(): Effort | undefined;
  /** Boots the next parts and adopts them, unless a turn or another switch is running (`session.busy`). */
  switchTo(boot: () => Promise<ControllerParts>, fromSeq?: number): Promise<void>;
}

export class SessionSwitch implements SessionControl {
  #reboot: Reboot;
  #target: SwitchInfo;
  #hooks: SwitchHooks;

  constructor(reboot: Reboot, target: SwitchInfo, hooks: SwitchHooks) {
    this.#reboot = reboot;
    this.#target = target;
    this.#hooks = hooks;
  }

  newSession(): Promise<void> {
    return this.#hooks.switchTo(() => this.#reboot.boot({ flags: this.#flags() }));
  }

  resume(file: string): Promise<void> {
    const { model: _model, ...flags } = this.#flags();
    return this.#hooks.switchTo(() => this.#reboot.boot({ flags, resume: { kind: "query", query: file } }));
  }

  /**
   * The same session goes on with another model (the face keeps its transcript and is sent only what
   * follows); a session that has no turn yet is not on disk, so it starts again with the new model.
   */
  switchModel(ref: string): Promise<void> {
    const target = this.#target;
    const written = target.sessionWritten;
    const change: BootChange = {
      flags: { ...this.#flags(), model: ref },
      ...(written ? { resume: { kind: "query", query: target.sessionFile } } : {}),
    };
    return this.#hooks.switchTo(() => this.#reboot.boot(change), written ? target.lastSeq : undefined);
  }

  recentSessions(): Promise<SessionListing[]> {
    return listWorkspaceSessions(this.#reboot.paths.sessionsDir, this.#target.workspaceRoot);
  }

  async models(): Promise<ModelChoice[]> {
    const target = this.#target;
    const config = await loadConfig({ workspace: target.workspaceRoot, paths: this.#reboot.paths });
    return config.providers.flatMap((provider) =>
      provider.models.map((model) => ({
        ref: `${provider.name}/${model}`,
        provider: provider.name,
        model,
        current: provider.name === target.providerName && model === target.model,
      }))
    );
  }

  /** The settings the person chose in this face, carried into every session booted next. */
  #flags(): ConfigFlags {
    const target = this.#target;
    const effort = this.#hooks.chosenEffort();
    return {
      ...this.#reboot.flags,
      model: `${target.providerName}/${target.model}`,
      permissionMode: target.permissionMode,
      ...(effort ? { effort } : {}),
    };
  }
}

/** The events that show a switched-to session as it stands; after `/model` the face keeps its transcript. */
export function switchedEvents(
  session: { snapshot(fromSeq?: number): ReasonixEvent[]; announcement(figuresUpTo?: number): ReasonixEvent },
  fromSeq: number | undefined,
): ReasonixEvent[] {
  const snapshot = session.snapshot();
  if (fromSeq === undefined) return snapshot;
  const warnings = snapshot.filter((event) => event.type === "warning");
  return [session.announcement(fromSeq), ...session.snapshot(fromSeq), ...warnings];
}

/** Releases what a session held: its jobs, file agent, store, MCP servers and temp dir. */
export async function closeParts(parts: ControllerParts): Promise<void> {
  await parts.toolContext.jobs?.close();
  await parts.toolContext.files?.close();
  parts.log.store.close();
  await parts.mcp?.closeAll();
  await parts.onClose?.();
}
