/**
 * @module
 * A session's settings as ACP shows them: the permission mode as session modes (and as the `mode`
 * config option, for clients that only read config options), the model and the reasoning effort as
 * select config options.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Controller } from "../../control/mod.ts";
import { ReasonixError } from "../../lib/errors.ts";

const MODES: readonly acp.SessionMode[] = [
  { id: "ask", name: "Ask", description: "Ask before edits and commands" },
  { id: "auto", name: "Auto", description: "Edit files without asking; ask before risky commands" },
  { id: "yolo", name: "YOLO", description: "Run every tool call without asking" },
  { id: "plan", name: "Plan", description: "Read only; the agent proposes a plan for you to approve" },
];
const EFFORTS = ["auto", "disabled", "low", "high", "max"] as const;
type EffortValue = typeof EFFORTS[number];
type Mode = "ask" | "auto" | "yolo" | "plan";

export function modeState(controller: Controller): acp.SessionModeState {
  return { currentModeId: controller.permissionMode, availableModes: [...MODES] };
}

export async function configOptions(controller: Controller): Promise<acp.SessionConfigOption[]> {
  const models = await controller.sessions?.models().catch(() => []) ?? [];
  const current = `${controller.providerName}/${controller.model}`;
  const modelOptions = models.map((choice) => ({ value: choice.ref, name: choice.ref }));
  if (!modelOptions.some((option) => option.value === current)) {
    modelOptions.unshift({ value: current, name: current });
  }
  return [
    {
      type: "select",
      id: "mode",
      name: "Permission mode",
      category: "mode",
      currentValue: controller.permissionMode,
      options: MODES.map((mode) => ({
        value: mode.id,
        name: mode.name,
        description: mode.description ?? null,
      })),
    },
    {
      type: "select",
      id: "model",
      name: "Model",
      category: "model",
      currentValue: current,
      options: modelOptions,
    },
    {
      type: "select",
      id: "effort",
      name: "Reasoning effort",
      category: "thought_level",
      currentValue: controller.effort,
      options: EFFORTS.map((effort) => ({ value: effort, name: effort })),
    },
  ];
}

export function setMode(controller: Controller, mode: string): void {
  if (!MODES.some((known) => known.id === mode)) {
    throw new ReasonixError("usage.bad_mode", `Unknown mode "${mode}": use ask, auto, yolo or plan`);
  }
  controller.setPermissionMode(mode as Mode);
}

/** Applies one config option; a model switch re-boots the session's parts (refused while a turn runs). */
export async function setOption(controller: Controller, id: string, value: unknown): Promise<void> {
  if (typeof value !== "string") {
    throw new ReasonixError("usage.bad_option", `Config option "${id}" takes one of its listed values`);
  }
  if (id === "mode") return setMode(controller, value);
  if (id === "effort") {
    if (!EFFORTS.includes(value as EffortValue)) {
      throw new ReasonixError("usage.bad_option", `Unknown effort "${value}": use ${EFFORTS.join(", ")}`);
    }
    return controller.setEffort(value as EffortValue);
  }
  if (id === "model") {
    if (!controller.sessions) {
      throw new ReasonixError("usage.bad_option", "This session cannot switch models");
    }
    return await controller.sessions.switchModel(value);
  }
  throw new ReasonixError("usage.bad_option", `Unknown config option "${id}": use mode, model or effort`);
}
