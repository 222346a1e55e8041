/**
 * @module
 * The fenced child must not outlive the parent that relays its stdio, signals and exit status: a parent
 * killed with SIGKILL cannot tell it. Deno has no prctl(PR_SET_PDEATHSIG), and the child's stdin is the
 * user's (the task, the TUI's terminal), so no pipe from the parent is free to watch. The child polls its
 * parent pid instead: once it differs from the one it was started under, the child was re-parented.
 */

/** How often the parent pid is checked: the longest an orphaned child keeps running. */
export const PARENT_POLL_MS = 100;

/** Calls `onGone` once when this process's parent is no longer `parentPid`; returns a stop function. */
export function watchParent(parentPid: number, onGone: () => void): () => void {
  let gone = false;
  const check = () => {
    if (gone || Deno.ppid === parentPid) return;
    gone = true;
    clearInterval(timer);
    onGone();
  };
  const timer = setInterval(check, PARENT_POLL_MS);
  // The watch alone must never keep the process running.
  Deno.unrefTimer(timer);
  check();
  return () => clearInterval(timer);
}
