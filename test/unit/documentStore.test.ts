import { describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { createDocumentStore, documentBytes } from '../../src/graphql/documentStore.js';

describe('document store', () => {
  it('charges a document for its source and tokens, comments included', () => {
    const plain = documentBytes(parse('{ student(id: "1") { name } }'));
    const padded = documentBytes(parse(`# ${'p'.repeat(10_000)}\n{ student(id: "1") { name } }`));
    expect(padded - plain).toBeGreaterThanOrEqual(20_000);
  });

  it('keeps at most its byte budget of documents, forgetting the least recently used', async () => {
    const store = createDocumentStore(200_000);
    for (let i = 0; i < 500; i++) await store.set(`q${i}`, parse(`# ${i} ${'p'.repeat(1000)}\n{ student(id: "${i}") { name } }`));
    const kept = store.keys();
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(100);
    expect(kept).toContain('q499');
    expect(kept).not.toContain('q0');
  });
});
