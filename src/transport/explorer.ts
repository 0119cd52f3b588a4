/**
 * The offline explorer: GraphiQL served by the gateway itself, in
 * development only, at `/graphiql` (docs/clients.md, "The explorer").
 * Apollo Sandbox stays `/graphql`'s landing page but loads from a CDN,
 * which a proxy, a plane or a locked-down browser may not reach.
 * GraphiQL's page and assets come from this process (the `graphiql`,
 * `react` and `react-dom` packages, or `explorer/` beside the bundle,
 * copied there by scripts/build-server.ts), and the landing page falls
 * back to it by itself (landingPage.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EXPLORER_PATH } from '../graphql/plugins/landingPage.js';
import { PROD_NODE_ENV } from '../config.js';
import { Kind } from 'graphql';
import type { Item } from '../dynamo/batchGet.js';
import type { Plan } from '../plan/plan.js';

export { EXPLORER_PATH };

/** React's minified builds, named after the NODE_ENV they are built for. */
const REACT = `react.${PROD_NODE_ENV}.min.js`;
const REACT_DOM = `react-dom.${PROD_NODE_ENV}.min.js`;

/** Each asset: its URL name under /graphiql/, its file inside its npm package, its media type. */
export const EXPLORER_ASSETS: Record<string, { file: string; type: string }> = {
  'graphiql.min.js': { file: 'graphiql/graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.min.css': { file: 'graphiql/graphiql.min.css', type: 'text/css; charset=utf-8' },
  [REACT]: { file: `react/umd/${REACT}`, type: 'text/javascript; charset=utf-8' },
  [REACT_DOM]: { file: `react-dom/umd/${REACT_DOM}`, type: 'text/javascript; charset=utf-8' },
};

/**
 * What the explorer opens with: an operation and its variables. The example
 * gives its variables defaults inside the operation and leaves the Variables
 * pane empty: a query pasted over it then runs as written, instead of
 * meeting variables it does not declare (refused: declaredVariables.ts).
 */
export interface ExplorerExample {
  query: string;
  variables: Record<string, unknown>;
}

const HEADER = `# The gateway's own GraphiQL: it works offline.
# Docs and History: the icons on the left.
# A token goes in Headers: {"Authorization": "Bearer …"}
`;

const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * The operation the explorer opens with, from the served model: its first
 * @get root field of a top-level type that has a connection, that type's
 * first text field and first connection (totalCount when the connection
 * type has it, pageInfo, the edge attributes, the node's id and first text
 * field), for the first item of that type in the demo data (`npm start`
 * loads it). A model without such a field opens with `{ __typename }`.
 */
export function explorerExample(plan: Plan, demo: readonly Item[] | null): ExplorerExample {
  for (const get of plan.gets) {
    if (get.keyless) continue;
    const type = plan.item(get.type);
    const relation = (plan.relationsOf.get(get.type) ?? [])[0];
    const argument = Object.entries(get.arguments);
    if (type.type.parent || !relation || argument.length !== 1 || argument[0][0] !== 'id') continue;
    const text = (t: typeof type) => t.type.attributes.find((a) => a.kind === 'String' && a.required)?.name;
    const connection = plan.model.document.definitions.find((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === relation.typeName);
    const hasTotal = connection?.kind === Kind.OBJECT_TYPE_DEFINITION && (connection.fields ?? []).some((f) => f.name.value === 'totalCount');
    const edgeAttributes = relation.relation.kind === 'edges' ? relation.relation.edgeAttributes.map((a) => a.name) : [];
    const nodeText = text(relation.node);
    const ownText = text(type);
    const firstId = (demo ?? []).map((item) => type.ids(item)).find((ids) => ids !== null)?.id ?? '1';
    const lines = [
      `query ${get.type}${capitalized(relation.field)}($id: ID! = ${JSON.stringify(firstId)}, $first: Int = 2, $after: String) {`,
      `  ${get.field}(${argument[0][1]}: $id) {`,
      ...(ownText ? [`    ${ownText}`] : []),
      `    ${relation.field}(first: $first, after: $after) {`,
      ...(hasTotal ? ['      totalCount'] : []),
      '      pageInfo { hasNextPage endCursor }',
      `      edges { ${[...edgeAttributes, `node { ${['id', ...(nodeText ? [nodeText] : [])].join(' ')} }`].join(' ')} }`,
      '    }',
      '  }',
      '}',
    ];
    return { query: `${HEADER}${lines.join('\n')}\n`, variables: {} };
  }
  return { query: `${HEADER}{ __typename }\n`, variables: {} };
}

function page(example: ExplorerExample): string {
  const config = JSON.stringify({ query: example.query, variables: JSON.stringify(example.variables, null, 2) }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>GraphiQL · DynamoDB gateway</title>
<link rel="stylesheet" href="${EXPLORER_PATH}/graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0 } body { font-family: system-ui, sans-serif }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${EXPLORER_PATH}/${REACT}"></script>
<script src="${EXPLORER_PATH}/${REACT_DOM}"></script>
<script src="${EXPLORER_PATH}/graphiql.min.js"></script>
<script>
  (function () {
    var config = ${config};
    // The GraphQL endpoint of this gateway, whatever host and port the page came from.
    var url = new URL('/graphql', window.location.href).toString();
    var fetcher = GraphiQL.createFetcher({ url: url });
    window.graphiqlReady = true;
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, {
        fetcher: fetcher,
        defaultQuery: config.query,
        variables: config.variables,
        defaultEditorToolsVisibility: 'variables',
        isHeadersEditorEnabled: true,
        shouldPersistHeaders: false,
      }),
    );
  })();
</script>
</body>
</html>
`;
}

/** Where an asset's file is: beside the compiled bundle if it was copied there, else in node_modules. */
function assetPath(file: string): string | null {
  const copied = fileURLToPath(new URL(`../../explorer/${file.split('/').pop()}`, import.meta.url));
  if (existsSync(copied)) return copied;
  return resolveAsset(file);
}

/** An asset's file in node_modules: packages export their package.json, not these files, so resolve beside it. */
export function resolveAsset(file: string, from = import.meta.url): string | null {
  const [pkg, ...rest] = file.split('/');
  try {
    const path = join(dirname(createRequire(from).resolve(`${pkg}/package.json`)), ...rest);
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

export interface Explorer {
  /** Answers GET /graphiql and its assets; false for any other request (the caller routes it). */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
}

/** The explorer's routes, opening with `example` (explorerExample); assets are read once, on first use, and kept. */
export function createExplorer(example: ExplorerExample): Explorer {
  const cache = new Map<string, Buffer | null>();
  const asset = (name: string) => {
    if (!cache.has(name)) {
      const path = assetPath(EXPLORER_ASSETS[name]!.file);
      cache.set(name, path ? readFileSync(path) : null);
    }
    return cache.get(name)!;
  };
  const html = page(example);
  return {
    handle(req, res, pathname) {
      if (pathname !== EXPLORER_PATH && pathname !== `${EXPLORER_PATH}/` && !pathname.startsWith(`${EXPLORER_PATH}/`)) return false;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json; charset=utf-8', connection: 'close' });
        res.end(JSON.stringify({ errors: [{ message: 'Method not allowed: the explorer is read with GET', extensions: { code: 'BAD_REQUEST' } }] }));
        return true;
      }
      const name = pathname.slice(EXPLORER_PATH.length + 1);
      if (name === '') {
        const missing = Object.keys(EXPLORER_ASSETS).filter((n) => asset(n) === null);
        if (missing.length) {
          res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`The explorer's files are not installed (${missing.join(', ')}): run npm install.\n`);
          return true;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
        res.end(req.method === 'HEAD' ? undefined : html);
        return true;
      }
      const body = Object.hasOwn(EXPLORER_ASSETS, name) ? asset(name) : null;
      if (!body) {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ errors: [{ message: `No explorer asset ${name}`, extensions: { code: 'NOT_FOUND' } }] }));
        return true;
      }
      res.writeHead(200, { 'content-type': EXPLORER_ASSETS[name]!.type, 'content-length': body.length, 'cache-control': 'public, max-age=3600' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
