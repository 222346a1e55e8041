/**
 * @module
 * Picks the sandbox for this platform and config. A missing or broken OS sandbox is reported in one
 * warning, then commands are refused (`require = true`) or run unsandboxed — never silently.
 */
import { BubblewrapSandbox } from "./bubblewrap.ts";
import { DirectSandbox } from "./none.ts";
import type { SandboxPolicy } from "./policy.ts";
import { type Probe, probeBubblewrap, probeSeatbelt } from "./probe.ts";
import { RefusingSandbox } from "./refusing.ts";
import type { Sandbox } from "./sandbox.ts";
import { SeatbeltSandbox } from "./seatbelt.ts";

export interface SandboxSettings {
  /** `[sandbox] bash`: false runs commands directly, by choice. */
  enabled: boolean;
  /** `[sandbox] require`: refuse commands when no OS sandbox works. */
  require: boolean;
  os: string;
  /** Replaces the real probe of the platform's sandbox (tests). */
  probe?: () => Promise<Probe>;
}

export interface SandboxChoice {
  sandbox: Sandbox;
  /** Set when the OS sandbox was wanted but cannot run: say it once, at boot. */
  warning?: string;
}

export async function selectSandbox(
  policy: SandboxPolicy,
  settings: SandboxSettings,
): Promise<SandboxChoice> {
  if (!settings.enabled) return { sandbox: new DirectSandbox() };
  const probe = settings.probe ?? platformProbe(settings.os);
  const result = await probe();
  if (result.ok) {
    return {
      sandbox: settings.os === "darwin" ? new SeatbeltSandbox(policy) : new BubblewrapSandbox(policy),
    };
  }
  if (settings.require) {
    return {
      sandbox: new RefusingSandbox(result.reason),
      warning: `No OS sandbox: ${result.reason}; bash is refused because [sandbox] require = true`,
    };
  }
  return {
    sandbox: new DirectSandbox(),
    warning:
      `No OS sandbox: ${result.reason}; bash runs UNSANDBOXED (set [sandbox] require = true to refuse instead)`,
  };
}

function platformProbe(os: string): () => Promise<Probe> {
  if (os === "linux") return () => probeBubblewrap();
  if (os === "darwin") return () => probeSeatbelt();
  return () => Promise.resolve({ ok: false, reason: `${os} has no OS sandbox Reasonix can use` });
}
