/**
 * @module
 * Builds a session's permission machinery from config: the compiled rules, the approval desk (with
 * this workspace's remembered grants), and the gate. The bash grammar is loaded here, once.
 */
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { addPermissionGrant, loadPermissionGrants } from "../config/permission_grants.ts";
import type { Gate } from "../agent/dispatch.ts";
import { compileRules } from "../permission/rules.ts";
import type { Workspace } from "../tool/tool.ts";
import { Approvals } from "./approvals.ts";
import { createPolicyGate } from "./permission_gate.ts";

export interface PermissionSetup {
  gate: Gate;
  approvals: Approvals;
  /** Applies re-read config rules and remembered grants to this gate at once (`/reload`). */
  reload(config: ResolvedConfig): Promise<void>;
}

export async function setupPermissions(options: {
  config: ResolvedConfig;
  paths: Paths;
  workspace: Workspace;
  headless: boolean;
}): Promise<PermissionSetup> {
  const { config, paths, workspace } = options;
  const approvals = new Approvals({
    mode: config.permissions.mode,
    alwaysRules: await loadPermissionGrants(paths, workspace.root),
    persist: async (rule) => {
      await addPermissionGrant(paths, workspace.root, rule);
      return paths.trustFile;
    },
  });
  const gateOptions = {
    approvals,
    rules: compileRules(config.permissions),
    allowDynamicBash: config.permissions.allowDynamicBash,
    privateHosts: config.tools.webFetchAllowPrivate,
    roots: { root: workspace.root, extraWritable: workspace.extraWritable },
    headless: options.headless,
  };
  const reload = async (next: ResolvedConfig) => {
    gateOptions.rules = compileRules(next.permissions);
    gateOptions.allowDynamicBash = next.permissions.allowDynamicBash;
    gateOptions.privateHosts = next.tools.webFetchAllowPrivate;
    approvals.setAlwaysRules(await loadPermissionGrants(paths, workspace.root));
  };
  return { gate: createPolicyGate(gateOptions), approvals, reload };
}
