import type { CodegenConfig } from '@graphql-codegen/cli';
import { addTypenameSelectionDocumentTransform } from '@graphql-codegen/client-preset';

/**
 * Typed operations for frontends: `npm run codegen:clients`.
 *
 * clients/api/schema.graphql (the served schema, written by `npm run schema`)
 * + the operations in clients/operations.ts → clients/__generated__/:
 * a typed `graphql()` tag, one TypedDocumentNode per operation (Apollo Client,
 * urql and graphql-request infer result and variable types from it) and
 * persisted-documents.json, the manifest of trusted documents
 * (docs/clients.md#persisted-queries-and-trusted-documents).
 *
 * A frontend copies this file and points `schema` at the served schema of
 * its model (`npm run schema -- --out <dir>`) and `documents` at its own sources.
 */
const config: CodegenConfig = {
  schema: 'clients/api/schema.graphql',
  documents: ['clients/operations.ts'],
  ignoreNoDocuments: false,
  // ES module imports with .js extensions (this project's module resolution is NodeNext).
  emitLegacyCommonJSImports: false,
  generates: {
    'clients/__generated__/': {
      preset: 'client',
      presetConfig: {
        fragmentMasking: false,
        // sha256 of each document's text: the hash Apollo's and urql's persisted-query links send.
        persistedDocuments: { hashAlgorithm: 'sha256' },
      },
      // The documents as Apollo Client and urql send them (they add __typename to every selection).
      documentTransforms: [addTypenameSelectionDocumentTransform],
      config: {
        // DateTime is an ISO-8601 string on the wire.
        scalars: { DateTime: 'string' },
        strictScalars: true,
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
      },
    },
  },
};

export default config;
