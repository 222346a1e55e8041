/**
 * @module
 * The one place goal mode meets verified delivery (`[agent] delivery = "verify"`, docs/DELIVERY.md): while
 * a goal runs its turns, delivery is on; when the goal stops, the mode it had before comes back.
 */
import type { DeliveryMode, DeliveryPort } from "../delivery/policy.ts";

/** The switch goal mode calls with true when a goal starts or resumes running, false when it stops. */
export function goalDelivery(port: () => DeliveryPort): (running: boolean) => void {
  let before: DeliveryMode | null = null;
  return (running) => {
    const delivery = port();
    if (running) {
      before ??= delivery.mode;
      delivery.setMode("verify");
      return;
    }
    if (before !== null) delivery.setMode(before);
    before = null;
  };
}
