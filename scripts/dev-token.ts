/**
 * `npm run dev-token -- --role admin` / `--student 1` / `--customer 1`:
 * prints a bearer token from the development issuer that
 * `AUTH_MODE=oidc AUTH_DEV_ISSUER=true npm start` serves (docs/auth.md).
 * Paste it into Apollo Sandbox's Headers panel as
 * `Authorization: Bearer <token>`.
 *
 * The id flags come from the model served (SCHEMA_FILE): one
 * `--<type in lower case> <id>` per owner type (@item(claim:)), carried in that owner's claim.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { devSigningKey, DEV_KEY_FILE, mint } from '../src/auth/devIssuer.js';
import { ownerClaims } from '../src/auth/ownerClaims.js';
import { loadModel } from '../src/declaration/loadModel.js';

let usage = 'usage: npm run dev-token -- [--role <role>]... [--<owner type> <id>]... [--sub <subject>] [--expires <seconds>]';

async function main() {
  // The same settings the gateway reads, so issuer, audience, model and claim names match it.
  const config = loadConfig({ ...process.env, NODE_ENV: 'development', AUTH_MODE: 'oidc', AUTH_DEV_ISSUER: 'true', AUTH_ISSUER: '' });
  if (config.auth.mode !== 'oidc') throw new Error('unreachable: AUTH_MODE=oidc was set');
  const auth = config.auth;
  const model = loadModel(config.schemaFile);
  const owners = Object.entries(ownerClaims(model, auth.claims)).map(([type, claim]) => ({ flag: type.toLowerCase(), type, claim }));
  const settings = [...model.items.values()].flatMap((item) => (item.owner?.setting ? [item.owner.setting] : []));
  usage = [
    `usage: npm run dev-token -- [--role <role>]... ${owners.map((o) => `[--${o.flag} <id>] `).join('')}[--sub <subject>] [--expires <seconds>]`,
    '  --role admin      an administrator (may do everything); repeat --role for more roles',
    ...owners.map((o) => `  --${o.flag} <id>`.padEnd(20) + `the caller owns this ${o.type} (claim ${o.claim})`),
    '  no flags          a signed-in caller with no role or ids',
    `env: AUTH_DEV_ISSUER_PORT (default 4001), AUTH_AUDIENCE, AUTH_ROLES_CLAIM, SCHEMA_FILE${settings.map((s) => `, ${s}`).join('')}`,
  ].join('\n');

  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      role: { type: 'string', multiple: true },
      ...Object.fromEntries(owners.map((o) => [o.flag, { type: 'string' as const }])),
      sub: { type: 'string' },
      expires: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const expires = Number(values.expires ?? 3600);
  const longest = auth.maxTokenLifetimeSeconds;
  if (!Number.isInteger(expires) || expires < 1 || expires > longest) {
    throw new ConfigError(`--expires must be 1 to ${longest} seconds (AUTH_MAX_TOKEN_LIFETIME_SECONDS)`);
  }
  const given = values as Record<string, unknown>;
  const claims: Record<string, unknown> = {};
  if (values.role?.length) claims[auth.rolesClaim] = values.role;
  for (const o of owners) if (typeof given[o.flag] === 'string') claims[o.claim] = given[o.flag];
  const first = owners.find((o) => typeof given[o.flag] === 'string');
  const subject = values.sub ?? (first ? `${first.flag}-${String(given[first.flag])}` : 'dev-user');
  const token = await mint(await devSigningKey(), {
    issuer: auth.issuer,
    audience: auth.audience,
    subject,
    expiresIn: expires,
    claims,
  });
  console.error(`# ${subject} ${JSON.stringify(claims)}, valid ${expires} s, issuer ${auth.issuer}, key ${DEV_KEY_FILE}`);
  console.error('# Apollo Sandbox → Headers: Authorization = Bearer <token below>');
  console.log(token);
}

main().catch((err) => {
  console.error(err instanceof ConfigError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? `${(err as Error).message}\n${usage}` : err);
  process.exit(1);
});
