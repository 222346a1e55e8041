/**
 * @module
 * `/api/setup`: the web UI's provider setup, with the behaviour of `reasonix setup` (control/setup.ts):
 * the key goes to `<home>/.env`, `default_model` to the user's config when serve may write it. New
 * sessions use the choice at once. Loopback clients only (setup_gate.ts); a key is never sent back,
 * only its last four characters.
 */
import type { Hono } from "hono";
import { z } from "zod";
import {
  type AdminContext,
  configTarget,
  currentDefaultModel,
  existingKey,
  existingKeySource,
  keyOptional,
  type ModelChoice,
  modelChoices,
  needsSetup,
  type SetupContext,
  storeKey,
  testKey,
  writeDefaultModel,
} from "../../control/mod.ts";
import type { ServeEnv } from "./auth.ts";
import { readBody } from "./body.ts";
import type { SessionHub } from "./hub.ts";
import { refuseError } from "./refuse.ts";
import { loopbackOnly } from "./setup_gate.ts";

export interface SetupRouteOptions {
  admin: AdminContext;
  hub: SessionHub;
  /** The environment snapshot keys are looked up in (the process's, in the real server). */
  env: Record<string, string>;
  /** How long the test request may take (ms). */
  testTimeoutMs?: number;
}

const SaveBody = z.object({
  provider: z.string().min(1).max(200),
  model: z.string().min(1).max(200).optional(),
  key: z.string().max(4096).optional(),
  test: z.boolean().optional(),
}).strict();

export function setupRoutes(app: Hono<ServeEnv>, options: SetupRouteOptions): void {
  const context: SetupContext = {
    workspace: options.admin.workspace,
    paths: options.admin.paths,
    env: options.env,
  };
  app.use("/api/setup", loopbackOnly());
  app.use("/api/setup/*", loopbackOnly());
  app.get("/api/setup", async (c) => {
    try {
      const choices = await setupChoices(context);
      const providers = await Promise.all(choices.map((choice) => describe(choice, context)));
      return c.json({
        needed: await needsSetup(context),
        defaultModel: await currentDefaultModel(context),
        keyFile: context.paths.envFile,
        providers,
      });
    } catch (error) {
      return refuseError(c, error);
    }
  });
  app.post("/api/setup", async (c) => {
    const body = await readBody(c, SaveBody);
    if (body instanceof Response) return body;
    try {
      const saved = await save(body, options, context);
      return isRefusal(saved) ? c.json(saved.refusal, saved.status) : c.json(saved);
    } catch (error) {
      return refuseError(c, error);
    }
  });
}

/**
 * The providers setup offers: built-in and the user's own. One a cloned repository's `reasonix.toml`
 * declares is left out: testing it with a key already set would send that key to a server of the
 * repository's choosing (config/credentials.ts guards sessions the same way).
 */
async function setupChoices(context: SetupContext): Promise<ModelChoice[]> {
  return (await modelChoices(context)).filter((choice) => choice.provider.source !== "project");
}

async function describe(choice: ModelChoice, context: SetupContext) {
  const { provider } = choice;
  const envName = provider.apiKeyEnv;
  const key = envName === "" ? undefined : await existingKey(envName, context);
  return {
    ref: choice.ref,
    baseUrl: provider.baseUrl,
    models: provider.models,
    defaultModel: provider.defaultModel,
    keyEnv: envName,
    keySource: envName === "" ? null : await existingKeySource(envName, context),
    key: key === undefined ? null : masked(key),
  };
}

interface Refusal {
  refusal: { code: string; message: string; hint?: string };
  status: 400 | 422;
}
type Saved = { ok: true; [field: string]: unknown } | Refusal;

async function save(
  body: z.infer<typeof SaveBody>,
  options: SetupRouteOptions,
  context: SetupContext,
): Promise<Saved> {
  const choice = (await setupChoices(context)).find((candidate) => candidate.ref === body.provider);
  if (!choice) return refusal(400, "setup.unknown_provider", `No provider "${body.provider}" is configured`);
  const { provider } = choice;
  const model = body.model ?? provider.defaultModel;
  if (!provider.models.includes(model)) {
    return refusal(400, "setup.unknown_model", `Provider "${provider.name}" has no model "${model}"`);
  }
  const envName = provider.apiKeyEnv;
  const typed = envName === "" ? "" : (body.key ?? "").trim();
  // What a key can be (printable ASCII), and what `<home>/.env` can hold without quoting.
  if (typed !== "" && /[^\x21-\x7e]|["'\\]/.test(typed)) {
    return refusal(
      400,
      "setup.bad_key",
      "Cannot store the key: it contains spaces, quotes or other characters no key has",
    );
  }
  const found = typed !== "" ? typed : envName === "" ? "" : await existingKey(envName, context);
  // A server on this machine may take no key: its variable is then left unset, as `reasonix setup` does.
  const key = found ?? (keyOptional(provider.baseUrl) ? "" : undefined);
  if (key === undefined) {
    return refusal(400, "setup.no_key", `Paste the key for ${provider.name} (it is stored as ${envName})`);
  }
  const tested = body.test !== false;
  if (tested) {
    const result = await testKey({ ...choice, model }, key, {
      env: context.env,
      ...(options.testTimeoutMs ? { timeoutMs: options.testTimeoutMs } : {}),
    });
    if (!result.ok) {
      return refusal(422, "setup.test_failed", result.message, "Check the key, or save untested");
    }
  }
  if (typed !== "") await storeKey(context.paths, envName, typed);
  const ref = model === provider.defaultModel ? provider.name : `${provider.name}/${model}`;
  const config = await writeModel(ref, context);
  options.hub.setDefaultModel(ref);
  return {
    ok: true as const,
    provider: provider.name,
    model,
    defaultModel: ref,
    keyEnv: envName,
    key: key === "" ? null : masked(key),
    keyStored: typed !== "",
    keyFile: context.paths.envFile,
    tested,
    config,
  };
}

/** `default_model` in the user's config, as `reasonix setup` writes it; serve's fence may not allow it. */
async function writeModel(ref: string, context: SetupContext): Promise<{ status: string; file: string }> {
  const file = configTarget(context.paths, undefined);
  if (await currentDefaultModel(context) === ref) return { status: "unchanged", file };
  try {
    return { status: (await writeDefaultModel(file, ref)).kind, file };
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
      return { status: "not_written", file };
    }
    throw error;
  }
}

function isRefusal(saved: Saved): saved is Refusal {
  return "refusal" in saved;
}

function refusal(status: 400 | 422, code: string, message: string, hint?: string): Refusal {
  return { refusal: { code, message, ...(hint ? { hint } : {}) }, status };
}

/** Never the key: four bullets and, for a key long enough that it gives little away, its last four characters. */
export function masked(key: string): string {
  return key.length >= 16 ? `••••${key.slice(-4)}` : "••••";
}
