/**
 * `npm run dev-token -- --role admin` / `--student 1` / `--customer 1`:
 * prints a bearer token from the development issuer that
 * `AUTH_MODE=oidc AUTH_DEV_ISSUER=true npm start` serves (docs/auth.md).
 * Paste it into Apollo Sandbox's Headers panel as
 * `Authorization: Bearer <token>`.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { devSigningKey, DEV_KEY_FILE, mint } from '../src/auth/devIssuer.js';

const USAGE = `usage: npm run dev-token -- [--role <role>]... [--student <id>] [--customer <id>] [--sub <subject>] [--expires <seconds>]
  --role admin      an administrator (may do everything); repeat --role for more roles
  --student <id>    the caller is this student (own email, enroll/unenroll/updateStudent for themselves)
  --customer <id>   the caller is this customer (own customer, email and orders; placeOrder for themselves)
  no flags          a signed-in caller with no role: reads student names and enrollments
env: AUTH_DEV_ISSUER_PORT (default 4001), AUTH_AUDIENCE, AUTH_ROLES_CLAIM, AUTH_STUDENT_CLAIM, AUTH_CUSTOMER_CLAIM`;

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      role: { type: 'string', multiple: true },
      student: { type: 'string' },
      customer: { type: 'string' },
      sub: { type: 'string' },
      expires: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  // The same settings the gateway reads, so issuer, audience and claim names match it.
  const config = loadConfig({ ...process.env, NODE_ENV: 'development', AUTH_MODE: 'oidc', AUTH_DEV_ISSUER: 'true', AUTH_ISSUER: '' });
  if (config.auth.mode !== 'oidc') throw new Error('unreachable: AUTH_MODE=oidc was set');
  const expires = Number(values.expires ?? 3600);
  const longest = config.auth.maxTokenLifetimeSeconds;
  if (!Number.isInteger(expires) || expires < 1 || expires > longest) {
    throw new ConfigError(`--expires must be 1 to ${longest} seconds (AUTH_MAX_TOKEN_LIFETIME_SECONDS)`);
  }
  const claims: Record<string, unknown> = {};
  if (values.role?.length) claims[config.auth.rolesClaim] = values.role;
  if (values.student) claims[config.auth.studentClaim] = values.student;
  if (values.customer) claims[config.auth.customerClaim] = values.customer;
  const subject = values.sub ?? (values.student ? `student-${values.student}` : values.customer ? `customer-${values.customer}` : 'dev-user');
  const token = await mint(await devSigningKey(), {
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    subject,
    expiresIn: expires,
    claims,
  });
  console.error(`# ${subject} ${JSON.stringify(claims)}, valid ${expires} s, issuer ${config.auth.issuer}, key ${DEV_KEY_FILE}`);
  console.error('# Apollo Sandbox → Headers: Authorization = Bearer <token below>');
  console.log(token);
}

main().catch((err) => {
  console.error(err instanceof ConfigError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? `${(err as Error).message}\n${USAGE}` : err);
  process.exit(1);
});
