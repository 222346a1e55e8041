/**
 * @module
 * The session flags of `run`, the TUI and `serve`, from the command line's parsed options.
 */
export function runFlags(opts: Record<string, unknown>) {
  const mode = opts.yolo ? "yolo" : opts.permissionMode as string | undefined;
  return {
    ...(opts.model ? { model: String(opts.model) } : {}),
    ...(opts.effort ? { effort: String(opts.effort) } : {}),
    ...(opts.maxSteps !== undefined ? { maxSteps: Number(opts.maxSteps) } : {}),
    ...(mode ? { permissionMode: mode } : {}),
    addDirs: opts.addDir as string[],
    allowedTools: opts.allowedTools as string[],
  };
}
