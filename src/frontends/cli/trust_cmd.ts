/**
 * @module
 * `reasonix trust [--dir PATH] [--show] [--revoke] [--yes]`: renders the review from
 * control/project_trust.ts and asks before recording; without a terminal it needs `--yes`.
 */
import {
  adminContext,
  approveProjectTrust,
  formatTrustReview,
  reviewProjectTrust,
  revokeProjectTrust,
} from "../../control/mod.ts";
import { ReasonixError } from "../../lib/errors.ts";

export interface TrustOptions {
  dir?: string;
  show?: boolean;
  revoke?: boolean;
  yes?: boolean;
}

export interface TrustIo {
  interactive: boolean;
  confirm: (message: string) => Promise<boolean>;
}

export async function trustCmd(opts: TrustOptions, io: TrustIo): Promise<void> {
  const ctx = await adminContext(opts.dir);
  if (opts.revoke) {
    const revoked = await revokeProjectTrust(ctx);
    console.log(
      revoked
        ? `Revoked: ${ctx.workspace}/reasonix.toml may only tighten your settings again`
        : "Nothing to revoke",
    );
    return;
  }
  const review = await reviewProjectTrust(ctx);
  console.log(formatTrustReview(review));
  if (opts.show) return;
  if (review.trust === "trusted") return;
  if (!opts.yes) {
    if (!io.interactive) {
      throw new ReasonixError("usage.confirm", "Cannot ask for confirmation: stdin is not a terminal", {
        hint: "Run `reasonix trust --yes` to trust this exact file without asking",
      });
    }
    if (!await io.confirm(`Trust this exact ${review.file}?`)) {
      console.log("Not trusted");
      return;
    }
  }
  await approveProjectTrust(ctx, review);
  console.log(
    `Trusted: these exact bytes of ${review.file} now apply in full (sha256 ${review.sha256.slice(0, 12)})`,
  );
}
