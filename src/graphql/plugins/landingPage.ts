/**
 * The development landing page of `/graphql`: Apollo Sandbox where it
 * loads, the gateway's own GraphiQL (transport/explorer.ts) where it does
 * not.
 *
 * Apollo's page loads Sandbox's script from Apollo's CDN. This wraps it and
 * adds, under the same Content-Security-Policy nonce, a script that opens
 * the explorer instead when that script fails to load (offline, a proxy
 * that refuses it, a browser that blocks it) or has not arrived after
 * FALLBACK_AFTER_MS (a proxy that swallows it), plus a link to the
 * explorer in the page's own "cannot be loaded" text.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';

export const FALLBACK_AFTER_MS = 8_000;
/** Where the node:http transport serves the explorer (transport/explorer.ts). */
export const EXPLORER_PATH = '/graphiql';

/** Adds the fallback to Apollo's landing page HTML (its CSP nonce reused, so the script may run). */
export function withExplorerFallback(html: string, explorerPath: string): string {
  const nonce = /<script nonce="([^"]+)"/.exec(html)?.[1];
  if (!nonce) return html;
  const target = JSON.stringify(explorerPath);
  const script = `<script nonce="${nonce}">
  (function () {
    var done = false;
    function fallback() {
      if (done || window.EmbeddedSandbox) return;
      done = true;
      window.location.replace(new URL(${target}, window.location.href).toString());
    }
    window.addEventListener('error', function (event) {
      var el = event.target;
      if (el && el.tagName === 'SCRIPT' && /embeddable-sandbox/.test(el.src || '')) fallback();
    }, true);
    setTimeout(fallback, ${FALLBACK_AFTER_MS});
  })();
</script>`;
  const link = `<p>Opening the gateway's own GraphiQL, which works offline: <a href="${explorerPath}">${explorerPath}</a></p>`;
  return html.replace('<body>', `<body>\n${script}`).replace(/(<p>Apollo Sandbox cannot be loaded;[^<]*<\/p>)/, `$1\n  ${link}`);
}

export function landingPageWithFallback(explorerPath: string): ApolloServerPlugin {
  const sandbox = ApolloServerPluginLandingPageLocalDefault({ embed: true });
  return {
    async serverWillStart(service) {
      const listener = await sandbox.serverWillStart?.(service);
      if (!listener?.renderLandingPage) return listener;
      const render = listener.renderLandingPage;
      return {
        ...listener,
        async renderLandingPage() {
          const landing = await render();
          const original = landing.html;
          return { html: async () => withExplorerFallback(typeof original === 'string' ? original : await original(), explorerPath) };
        },
      };
    },
  };
}
