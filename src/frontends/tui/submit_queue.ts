/**
 * @module
 * What the input box sends: one `submit` at a time. Input that lands before turn_started re-renders, or
 * while an interrupted turn is still closing, is kept and sent next, never dropped. A command marked
 * `immediate` (`/goal status|pause|stop` while a goal runs) is sent at once.
 */
import { useRef } from "react";
import type { FaceHooks, SubmitPort } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";

/** `face` is read when the input is sent; `print` shows the queued note and a failed submit's error. */
export function useSubmitQueue(
  controller: SubmitPort,
  face: () => FaceHooks,
  print: (text: string) => void,
): (text: string) => void {
  // A ref, not state.status.busy: a second Enter can land before the first re-renders.
  const running = useRef(false);
  const queued = useRef<string[]>([]);
  const send = (text: string) => {
    if (running.current && runsAtOnce(controller, text)) {
      void controller.submit(text, face()).catch((error) => print(errorMessage(error)));
      return;
    }
    if (running.current) {
      queued.current.push(text);
      print(t("app.queued", { text: text.length > 60 ? `${text.slice(0, 57)}…` : text }));
      return;
    }
    running.current = true;
    void controller.submit(text, face())
      .catch((error) => print(errorMessage(error)))
      .finally(() => {
        running.current = false;
        const next = queued.current.shift();
        if (next !== undefined) send(next);
      });
  };
  return send;
}

/** A command marked `immediate` (`/goal pause`) is not held behind the running turn or goal. */
function runsAtOnce(controller: SubmitPort, text: string): boolean {
  const resolution = controller.commands.resolve(text);
  return resolution.kind === "command" && resolution.command.immediate === true;
}

function errorMessage(error: unknown): string {
  return String(error instanceof Error ? error.message : error);
}
