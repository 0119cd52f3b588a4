/**
 * ownerClaims(): which token claim names the item a caller owns, for each
 * owner type of the model.
 *
 * In: the model's `@item(claim, claimSetting)` declarations and the claims the
 * environment renames (config.ts reads every `AUTH_<NAME>_CLAIM` into
 * `claims`). Out: owner type → claim name, what identity.ts reads tokens
 * with. An owner whose setting is unset keeps the model's claim, so with
 * `@item(…, claim: "team_id", claimSetting: "AUTH_TEAM_CLAIM")` a token's
 * `team_id` names the caller's team unless `AUTH_TEAM_CLAIM=custom:team`.
 *
 * A setting config.ts would never read (not `AUTH_<NAME>_CLAIM`, or the
 * roles claim's own variable) is a mistake in the model: ModelError, so
 * start-up stops with the same kind of message as any other model problem.
 */
import { OWNER_CLAIM_SETTING } from '../config.js';
import type { Model } from '../declaration/model.js';
import { ModelError, type ModelProblem } from '../declaration/problems.js';

export function ownerClaims(model: Pick<Model, 'items' | 'source'>, renamed: Readonly<Record<string, string>> = {}): Record<string, string> {
  const claims: Record<string, string> = {};
  const problems: ModelProblem[] = [];
  for (const item of model.items.values()) {
    if (!item.owner) continue;
    const { claim, setting } = item.owner;
    if (setting !== null && (!OWNER_CLAIM_SETTING.test(setting) || setting === 'AUTH_ROLES_CLAIM')) {
      problems.push({
        where: `${item.name} @item(claimSetting)`,
        message: `"${setting}" cannot rename the claim: name an environment variable AUTH_<NAME>_CLAIM other than AUTH_ROLES_CLAIM`,
        line: null,
      });
    }
    claims[item.name] = (setting !== null ? renamed[setting] : undefined) ?? claim;
  }
  if (problems.length > 0) throw new ModelError(model.source, problems);
  return claims;
}
