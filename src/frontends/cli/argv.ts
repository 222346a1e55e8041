/** `reasonix -p <task>` is `reasonix run -p <task>`, as in the Go Reasonix. */
export function normaliseArgs(args: string[]): string[] {
  if (args[0] === "-p" || args[0] === "--print") return ["run", ...args];
  return args;
}
