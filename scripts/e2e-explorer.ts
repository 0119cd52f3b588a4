/**
 * `npm run e2e:explorer`: the explorer a frontend developer opens first, in
 * a real browser with no network (Debian's chromium driven by
 * puppeteer-core; not part of npm test).
 *
 * Starts the gateway as `npm start` does (embedded DynamoDB Local, demo
 * data, development mode) on 127.0.0.1 and opens http://127.0.0.1:<port>/graphql
 * in a browser whose every request to any other host is refused: as on a
 * plane, behind a proxy, in a locked-down CI browser. Then checks that
 *
 * 1. the landing page cannot load Apollo Sandbox from its CDN and opens the
 *    gateway's own GraphiQL at /graphiql by itself;
 * 2. GraphiQL loaded the schema (the Docs panel lists `Query` and its
 *    `student` field) and runs the example query with a header from the
 *    Headers panel (`x-dynamodb-metrics: 1`, so the response carries
 *    `extensions.dynamodb`);
 * 3. the History panel lists the operation it ran;
 * 4. no request left the machine but the refused ones to Apollo's CDN.
 *
 * 5. the README's query, pasted over the example, runs as written (the
 *    Variables pane holds nothing it would not declare).
 *
 * Saves the screenshot in the system's temporary folder; E2E_SCREENSHOT
 * names another path (docs/explorer-offline.png refreshes the one the docs
 * show). Settings: CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Page } from 'puppeteer-core';
import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/transport/startGateway.js';
import { root } from './bundle.js';

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`e2e:explorer check failed: ${message}`);
}

// Page-side code is written as strings: this project compiles without the DOM's types.
const text = (tab: Page, selector: string) => tab.evaluate(`document.querySelector(${JSON.stringify(selector)}).innerText`) as Promise<string>;

/** Waits until the element's text matches. */
const waitText = (tab: Page, selector: string, pattern: RegExp, timeout = 20_000) =>
  tab.waitForFunction(`${pattern}.test((document.querySelector(${JSON.stringify(selector)}) || {}).innerText || '')`, { timeout });

/** Sets the value of one of GraphiQL's CodeMirror editors (typing would meet its auto-closed brackets). */
const setEditor = (tab: Page, selector: string, value: string) =>
  tab.evaluate(`document.querySelector(${JSON.stringify(`${selector} .CodeMirror`)}).CodeMirror.setValue(${JSON.stringify(value)})`);

/** Offline: only this machine answers; what it served and what was refused are noted. */
async function offline(tab: Page, served: string[], refused: string[]): Promise<void> {
  await tab.setRequestInterception(true);
  tab.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:') {
      void request.continue();
    } else if (url.hostname === '127.0.0.1') {
      served.push(url.pathname);
      void request.continue();
    } else {
      refused.push(url.origin);
      void request.abort('internetdisconnected');
    }
  });
}

async function main() {
  const screenshot = resolve(process.env.E2E_SCREENSHOT ?? join(tmpdir(), 'explorer-offline.png'));
  const gateway = await startGateway(loadConfig({ PORT: '0', HOST: '127.0.0.1', DYNAMODB_LOCAL_PORT: '0', LOG_LEVEL: 'warn' }));
  const base = gateway.url.replace('localhost', '127.0.0.1').replace(/\/graphql$/, '');
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    userDataDir: mkdtempSync(join(tmpdir(), 'gateway-e2e-explorer-')),
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
  const refused: string[] = [];
  const served: string[] = [];
  try {
    const tab = await browser.newPage();
    await tab.setViewport({ width: 1600, height: 900 });
    await offline(tab, served, refused);

    // 1. The landing page falls back to the explorer.
    await tab.goto(`${base}/graphql`);
    await tab.waitForFunction(`window.location.pathname === '/graphiql'`, { timeout: 20_000 });
    await tab.waitForSelector('.graphiql-container .graphiql-execute-button', { timeout: 20_000 });
    check(
      refused.some((o) => /apollographql\.com$/.test(o)),
      'the landing page tried Apollo Sandbox first',
    );

    // 2. A header from the Headers panel, then run the example query.
    const headersTab = await tab.waitForSelector('xpath/.//button[normalize-space(.)="Headers"]');
    await headersTab!.click();
    await tab.waitForSelector('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror');
    await setEditor(tab, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', '{\n  "x-dynamodb-metrics": "1"\n}');
    await tab.click('.graphiql-execute-button');
    await waitText(tab, '.result-window', /Ada Lovelace/);
    const result = await text(tab, '.result-window');
    check(/"totalCount": 3/.test(result) && /"hasNextPage"/.test(result), `the result is a connection page: ${result.slice(0, 200)}`);
    check(/"dynamodb"/.test(result), 'the header reached the gateway (extensions.dynamodb in the response)');

    // 3. History lists the operation; 4. the Docs list the schema.
    await tab.click('button[aria-label="Show History"]');
    await waitText(tab, '.graphiql-history', /StudentCourses/);
    await tab.click('button[aria-label="Show Documentation Explorer"]');
    await waitText(tab, '.graphiql-doc-explorer', /Query/);
    const query = await tab.waitForSelector('xpath/.//a[contains(@class, "graphiql-doc-explorer-type-name") and normalize-space(.)="Query"]');
    await query!.click();
    await waitText(tab, '.graphiql-doc-explorer', /student\(/);
    await tab.screenshot({ path: screenshot as `${string}.png` });

    // 5. The README's query pasted over the example runs: no stale variable is sent with it.
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const pasted = /```graphql\n([\s\S]*?)```/.exec(readme)?.[1];
    check(pasted, 'the README holds a query');
    await setEditor(tab, '.graphiql-query-editor', pasted);
    // GraphiQL reads the operation name from the edited text after a short debounce, as it does between typing and a click.
    await new Promise((done) => setTimeout(done, 1_000));
    await tab.click('.graphiql-execute-button');
    await waitText(tab, '.result-window', /"student"/);
    const pastedResult = await text(tab, '.result-window');
    check(!/"errors"/.test(pastedResult), `the README's query ran without errors: ${pastedResult.slice(0, 300)}`);

    const foreign = [...new Set(refused)];
    check(
      foreign.every((o) => /apollographql\.com$|googleapis\.com$|gstatic\.com$/.test(o)),
      `only Apollo's page assets were refused: ${foreign.join(', ')}`,
    );
    check(served.includes('/graphiql/graphiql.min.js') && served.includes('/graphiql/react.production.min.js'), 'assets came from the gateway');
    console.log(`landing page → ${tab.url()}`);
    console.log(`refused (offline): ${foreign.join(', ')}`);
    console.log(`served by the gateway: ${[...new Set(served)].join(', ')}`);
    console.log(`screenshot: ${screenshot}`);
    console.log('\ne2e:explorer passed (fallback to /graphiql offline, schema docs, headers, query, history)');
  } catch (err) {
    const pages = await browser.pages();
    const failed = join(tmpdir(), 'e2e-explorer-failure.png');
    await pages[pages.length - 1]?.screenshot({ path: failed as `${string}.png` }).catch(() => {});
    console.error(`failure screenshot: ${failed}`);
    throw err;
  } finally {
    await browser.close();
    await gateway.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
