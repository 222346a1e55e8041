import { z } from "zod";
import { defineTool } from "../tool.ts";
import { readJob, WAIT_DEFAULT_MS, WAIT_MAX_MS } from "./_job_report.ts";

const DESCRIPTION =
  `Block until a background job ends or timeout_ms passes; returns its status and unread output. A job still running keeps running.`;

const parameters = z.object({
  job_id: z.string().min(1).describe('The job id bash returned, e.g. "bash-1"'),
  timeout_ms: z.number().int().min(1).max(WAIT_MAX_MS).optional().describe(
    `The longest time to block in milliseconds (default ${WAIT_DEFAULT_MS}, at most ${WAIT_MAX_MS})`,
  ),
  filter: z.string().optional().describe("A regular expression: only unread lines matching it are shown"),
});

export const waitTool = defineTool({
  name: "wait",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  truncationHint: "use filter to keep only the lines you need",
  execute(args, ctx) {
    return readJob(
      { job_id: args.job_id, filter: args.filter, waitMs: args.timeout_ms ?? WAIT_DEFAULT_MS },
      ctx,
    );
  },
});
