/**
 * @module
 * THE hook between goal mode and verified delivery (`[agent] delivery = "verify"`): goal mode calls it
 * with `true` when a goal starts or resumes running and with `false` when it stops. Goal mode uses
 * verified delivery; once the delivery gates exist, connect them here (and only here).
 */
import type { ControllerParts } from "../controller_parts.ts";

export function goalDelivery(_parts: ControllerParts, _running: boolean): void {
  // Verified delivery is not built yet: nothing to turn on.
}
