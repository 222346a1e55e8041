import { z } from "zod";
import { defineTool, type ToolContext, type ToolResult } from "../tool.ts";
import { jobData, jobStatusLine, requireJobs } from "./_job_report.ts";

const DESCRIPTION =
  `Stop a background job and all its processes (SIGTERM, then SIGKILL). Its unread output stays readable with bash_output.`;

const parameters = z.object({
  job_id: z.string().min(1).describe('The job id bash returned, e.g. "bash-1"'),
  reason: z.string().optional().describe("Why the job is stopped, shown to the user"),
});

async function killJob(args: z.infer<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const { stopped, job } = await requireJobs(ctx).kill(args.job_id);
  const data = jobData(job);
  if (!stopped) return { output: `Nothing to stop: ${job.id} had already ended ${jobStatusLine(job)}`, data };
  return { output: `Stopped ${job.id} and its process group ${jobStatusLine(job)}`, data };
}

export const killShellTool = defineTool({
  name: "kill_shell",
  description: DESCRIPTION,
  parameters,
  readOnly: false,
  execute: killJob,
});

/** The same tool under the name the Go implementation uses; not registered by default. */
export const jobKillTool = defineTool({ ...killShellTool, name: "job_kill" });
