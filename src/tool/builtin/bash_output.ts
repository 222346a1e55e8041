import { z } from "zod";
import { defineTool } from "../tool.ts";
import { readJob, WAIT_DEFAULT_MS, WAIT_MAX_MS } from "./_job_report.ts";

const DESCRIPTION =
  `New output of a background job since the last read, then its status (running, or how it ended). Returns at once unless wait is true.`;

const parameters = z.object({
  job_id: z.string().min(1).describe('The job id bash returned, e.g. "bash-1"'),
  filter: z.string().optional().describe("A regular expression: only new lines matching it are shown"),
  wait: z.boolean().optional().describe("Block until the job ends or timeout_ms passes, like the wait tool"),
  timeout_ms: z.number().int().min(1).max(WAIT_MAX_MS).optional().describe(
    `With wait: the longest time to block in milliseconds (default ${WAIT_DEFAULT_MS})`,
  ),
});

export const bashOutputTool = defineTool({
  name: "bash_output",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  truncationHint: "use filter to keep only the lines you need",
  execute(args, ctx) {
    return readJob({
      job_id: args.job_id,
      filter: args.filter,
      waitMs: args.wait ? args.timeout_ms ?? WAIT_DEFAULT_MS : undefined,
    }, ctx);
  },
});
