/**
 * @module
 * Wires goal mode to a Controller and the session it runs: the desk runs turns through the Controller,
 * reads the tools' shared state, and turns verified delivery on while a goal runs (delivery.ts).
 */
import type { ReasonixEvent } from "../events.ts";
import type { ControllerParts } from "../controller_parts.ts";
import type { TurnOutcome } from "../turn_outcome.ts";
import type { TodoItem } from "../../tool/session_state.ts";
import type { DeliveryPort } from "../delivery/policy.ts";
import { GoalDesk } from "./desk.ts";
import { goalDelivery } from "./delivery.ts";
import { commandVerifies } from "../delivery/verifier.ts";

export type { GoalDesk };

interface TurnRunner {
  readonly sessionFile: string;
  readonly busy: boolean;
  runTurn(text: string): Promise<TurnOutcome>;
  interrupt(): void;
  todos(): TodoItem[];
  readonly delivery: DeliveryPort;
}

export function goalDeskFor(
  controller: TurnRunner,
  parts: ControllerParts,
  emit: (event: ReasonixEvent) => void,
): GoalDesk {
  return new GoalDesk({
    get sessionFile() {
      return controller.sessionFile;
    },
    get busy() {
      return controller.busy;
    },
    runTurn: (text) => controller.runTurn(text),
    interrupt: () => controller.interrupt(),
    todos: () => controller.todos(),
    state: parts.toolContext.state,
    emit,
    running: goalDelivery(() => controller.delivery),
    checks: (command) =>
      commandVerifies(command, {
        root: parts.toolContext.workspace.root,
        verifyCommands: parts.verifyCommands ?? [],
      }),
  });
}
