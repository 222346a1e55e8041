/**
 * @module
 * The environment variables of the Deno fence, in a leaf module so the CLI can check them before it
 * loads the Controller.
 */

/** Set in the fenced child so it does not fence itself again. */
export const FENCED_ENV = "REASONIX_FENCED";
/** The parent's pid, so the fenced child can tell when it was orphaned (src/sandbox/parent_watch.ts). */
export const FENCE_PARENT_ENV = "REASONIX_FENCE_PARENT";
/** Opt-out for debugging: run with the permissions Deno was started with. */
export const NO_FENCE_ENV = "REASONIX_NO_FENCE";
