/**
 * `npm run e2e:browser`: the gateway as a frontend meets it, in a real
 * browser (Debian's chromium driven by puppeteer-core; not part of npm test).
 *
 * Starts, all on 127.0.0.1 and all stopped at the end: a token issuer, the
 * gateway (`npm start` with the embedded DynamoDB Local and demo data,
 * AUTH_MODE=oidc, the page's origin as the only CORS origin) and a static
 * page on another port. The page calls the gateway with fetch(): signed in
 * (a bearer token, so the browser sends a CORS preflight that must allow
 * Authorization), anonymous, and with an expired token. Each view is
 * checked and saved as a PNG (E2E_SCREENSHOT_DIR, default a temporary
 * directory outside the repository).
 *
 * Settings: CHROMIUM_PATH (default /usr/bin/chromium), E2E_SCREENSHOT_DIR.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/transport/startGateway.js';
import { makeSigningKey, mint, startIssuer } from '../src/auth/devIssuer.js';

const AUDIENCE = 'e2e-browser';

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Course page</title>
<style>
  body { font: 15px system-ui, sans-serif; margin: 24px; color: #222; width: 640px }
  h1 { font-size: 20px } .who { padding: 6px 10px; border-radius: 4px; display: inline-block }
  .signed { background: #d8f5d8 } .anon { background: #eee } .bad { background: #f8d7d7 }
  table { border-collapse: collapse; margin: 8px 0 } td, th { border: 1px solid #ccc; padding: 4px 8px; text-align: left }
  .hidden { color: #a00; font-style: italic } code { background: #f4f4f4 }
</style></head>
<body>
<h1>Course catalog</h1>
<div id="who" class="who">…</div>
<p id="status"></p>
<h2 id="title"></h2>
<div id="roster"></div>
<h3>Errors</h3><ul id="errors"></ul>
<script>
const params = new URLSearchParams(location.hash.slice(1));
const token = params.get('token');
const gateway = params.get('gateway');
const QUERY = \`query Page($signedIn: Boolean!) {
  course(id: "A") { title students @include(if: $signedIn) { edges { enrolledAt node { id name email } } } }
  me: student(id: "1") { name email }
}\`;
(async () => {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = 'Bearer ' + token;
  const res = await fetch(gateway, { method: 'POST', headers, body: JSON.stringify({ query: QUERY, variables: { signedIn: !!token } }) });
  const body = await res.json();
  const who = document.getElementById('who');
  document.getElementById('status').textContent = 'HTTP ' + res.status;
  if (res.status === 401) {
    who.textContent = body.errors[0].message; who.className = 'who bad';
  } else if (body.data && body.data.me) {
    who.textContent = 'Signed in as ' + body.data.me.name + ' (' + body.data.me.email + ')'; who.className = 'who signed';
  } else {
    who.textContent = 'Anonymous visitor'; who.className = 'who anon';
  }
  const course = body.data && body.data.course;
  if (course) document.getElementById('title').textContent = course.title;
  if (course && course.students) {
    const rows = course.students.edges.map((e) =>
      '<tr><td>' + e.node.name + '</td><td>' + (e.node.email === null ? '<span class="hidden">hidden</span>' : e.node.email) + '</td><td>' + e.enrolledAt.slice(0, 10) + '</td></tr>');
    document.getElementById('roster').innerHTML = '<table><tr><th>Student</th><th>Email</th><th>Enrolled</th></tr>' + rows.join('') + '</table>';
  } else {
    document.getElementById('roster').innerHTML = '<p class="hidden">Sign in to see who takes this course.</p>';
  }
  document.getElementById('errors').innerHTML = (body.errors || [])
    .map((e) => '<li><code>' + (e.path || []).join('.') + '</code> ' + e.extensions.code + '</li>').join('') || '<li>none</li>';
  document.body.dataset.done = '1';
})().catch((err) => { document.getElementById('who').textContent = 'fetch failed: ' + err; document.body.dataset.done = '1'; });
</script></body></html>`;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`e2e check failed: ${message}`);
}

async function main() {
  const shots = process.env.E2E_SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
  mkdirSync(shots, { recursive: true });
  const key = await makeSigningKey('e2e');
  const issuer = await startIssuer({ keys: () => [key.publicJwk] });
  const page = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  const gateway = await startGateway(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DYNAMODB_LOCAL_PORT: '0',
      LOG_LEVEL: 'warn',
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: issuer.url,
      AUTH_AUDIENCE: AUDIENCE,
      CORS_ORIGINS: origin,
    }),
  );
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    userDataDir: mkdtempSync(join(tmpdir(), 'gateway-e2e-profile-')),
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const results: string[] = [];
  try {
    const views = [
      { name: 'signed-in', token: await mint(key, { issuer: issuer.url, audience: AUDIENCE, subject: 'ada', claims: { student_id: '1' } }) },
      { name: 'anonymous', token: undefined },
      { name: 'expired-token', token: await mint(key, { issuer: issuer.url, audience: AUDIENCE, expiresIn: -120 }) },
    ];
    for (const view of views) {
      const tab = await browser.newPage();
      await tab.setViewport({ width: 720, height: 520 });
      const hash = new URLSearchParams({ gateway: gateway.url.replace('localhost', '127.0.0.1'), ...(view.token ? { token: view.token } : {}) });
      await tab.goto(`${origin}/#${hash}`);
      await tab.waitForSelector('body[data-done="1"]', { timeout: 15_000 });
      const text = (await tab.evaluate('document.body.innerText')) as string;
      const file = join(shots, `${view.name}.png`);
      await tab.screenshot({ path: file as `${string}.png` });
      results.push(`${view.name}: ${file}\n${text.replace(/\n+/g, ' | ')}`);
      if (view.name === 'signed-in') {
        check(text.includes('Signed in as Ada Lovelace (ada@example.com)'), 'signed-in header');
        check(text.includes('Algorithms') && text.includes('Alan Turing') && text.includes('hidden'), 'roster with own email only');
        check(text.includes('HTTP 200'), 'status 200');
      } else if (view.name === 'anonymous') {
        check(text.includes('Anonymous visitor') && text.includes('Algorithms'), 'anonymous header and catalog');
        check(text.includes('Sign in to see') && text.includes('me FORBIDDEN'), 'roster hidden, student forbidden');
        check(!text.includes('Alan Turing'), 'no names for anonymous');
      } else {
        check(text.includes('HTTP 401') && text.includes('Bearer token rejected: expired') && text.includes('UNAUTHENTICATED'), 'expired token rejected');
      }
      await tab.close();
    }
  } finally {
    await browser.close();
    await gateway.stop();
    await issuer.stop();
    page.close();
  }
  console.log(results.join('\n\n'));
  console.log('\ne2e:browser passed (signed-in, anonymous and expired-token views)');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
