/**
 * @module
 * The interim permission gate: readers always run; writers follow the mode. Headless runs have
 * nobody to ask, so `ask` fails closed and tells the model exactly that, with the flag that helps.
 */
import type { PermissionMode } from "../config/types.ts";
import type { Gate, GateDecision } from "../agent/dispatch.ts";
import type { ToolSpec } from "../tool/tool.ts";

export interface ModeGateOptions {
  mode: PermissionMode;
  headless: boolean;
  /** Interactive approval; absent when nobody can answer. */
  ask?: (spec: ToolSpec, args: unknown) => Promise<boolean>;
}

const ALLOW: GateDecision = { allow: true };

export function createModeGate(options: ModeGateOptions): Gate {
  return {
    check(spec, args) {
      if (spec.readOnly || options.mode !== "ask") return Promise.resolve(ALLOW);
      if (options.ask) return askUser(options.ask, spec, args);
      return Promise.resolve(refuseHeadless(spec));
    },
  };
}

async function askUser(
  ask: NonNullable<ModeGateOptions["ask"]>,
  spec: ToolSpec,
  args: unknown,
): Promise<GateDecision> {
  if (await ask(spec, args)) return ALLOW;
  return { allow: false, code: "permission.denied", message: `The user declined this "${spec.name}" call` };
}

function refuseHeadless(spec: ToolSpec): GateDecision {
  return {
    allow: false,
    code: "permission.needs_approval",
    message: `"${spec.name}" changes files or runs commands and needs approval, but this headless run ` +
      `has nobody to ask: nothing was run. The user can allow it by rerunning with ` +
      `--permission-mode auto (or --yolo)`,
  };
}
