/**
 * The bytes of parsed documents held by live subscriptions (estimated as
 * documentStore.ts does: source and every token), bounded three ways:
 * per socket (WS_MAX_DOCUMENT_BYTES, each subscription its document), per
 * client address (WS_MAX_DOCUMENT_BYTES_PER_ADDRESS) and for the whole
 * instance (WS_MAX_DOCUMENT_BYTES_TOTAL). An address and the instance are
 * charged once per distinct document object they hold, since that is what
 * memory holds: a thousand sockets subscribing the same text share one
 * document (the engine keeps it by its text), while distinct documents
 * are charged each. What a subscription holds is given back when it ends,
 * however it ends, and an address without documents is forgotten: the
 * accounting returns to zero when the sockets close.
 */
import { GraphQLError, type DocumentNode } from 'graphql';
import { ErrorCode } from '../errors.js';

export interface DocumentLimits {
  /** Bytes per client address (0: off). */
  perAddress: number;
  /** Bytes for the whole instance. */
  total: number;
}

/** Who holds a document: a socket's own count, and its client's address. */
export interface DocumentHolder {
  readonly address: string;
  documentBytes: number;
  readonly maxDocumentBytes: number;
}

interface Held {
  bytes: number;
  holders: number;
}

interface Address {
  bytes: number;
  documents: Map<DocumentNode, number>;
}

export const UNLIMITED_DOCUMENTS: DocumentLimits = { perAddress: 0, total: Infinity };

export class HeldDocuments {
  private bytes = 0;
  private readonly documents = new Map<DocumentNode, Held>();
  private readonly addresses = new Map<string, Address>();

  constructor(readonly limits: DocumentLimits = UNLIMITED_DOCUMENTS) {}

  /**
   * The setting `bytes` more would pass for `holder`, or undefined when
   * they fit; `document` undefined: a document not parsed yet (so held by
   * no one), its least estimate.
   */
  refusal(holder: DocumentHolder, bytes: number, document?: DocumentNode): string | undefined {
    if (holder.documentBytes + bytes > holder.maxDocumentBytes) return 'WS_MAX_DOCUMENT_BYTES';
    const address = this.addresses.get(holder.address);
    const newHere = !document || !address?.documents.has(document);
    if (this.limits.perAddress > 0 && newHere && (address?.bytes ?? 0) + bytes > this.limits.perAddress) return 'WS_MAX_DOCUMENT_BYTES_PER_ADDRESS';
    const newAnywhere = !document || !this.documents.has(document);
    if (newAnywhere && this.bytes + bytes > this.limits.total) return 'WS_MAX_DOCUMENT_BYTES_TOTAL';
    return undefined;
  }

  /** Charges `holder` for a subscription of `document`; the setting it would pass instead (nothing charged). */
  take(holder: DocumentHolder, document: DocumentNode, bytes: number): string | undefined {
    const refused = this.refusal(holder, bytes, document);
    if (refused) return refused;
    holder.documentBytes += bytes;
    let address = this.addresses.get(holder.address);
    if (!address) this.addresses.set(holder.address, (address = { bytes: 0, documents: new Map() }));
    const here = address.documents.get(document) ?? 0;
    if (here === 0) address.bytes += bytes;
    address.documents.set(document, here + 1);
    const held = this.documents.get(document);
    if (held) held.holders++;
    else {
      this.documents.set(document, { bytes, holders: 1 });
      this.bytes += bytes;
    }
    return undefined;
  }

  /** A subscription `take` charged has ended. */
  give(holder: DocumentHolder, document: DocumentNode, bytes: number): void {
    holder.documentBytes -= bytes;
    const address = this.addresses.get(holder.address);
    const here = address?.documents.get(document);
    if (address && here !== undefined) {
      if (here > 1) address.documents.set(document, here - 1);
      else {
        address.documents.delete(document);
        address.bytes -= bytes;
        if (address.documents.size === 0) this.addresses.delete(holder.address);
      }
    }
    const held = this.documents.get(document);
    if (held && --held.holders === 0) {
      this.documents.delete(document);
      this.bytes -= held.bytes;
    }
  }

  /** Distinct documents held, their estimated bytes, and the addresses holding any. */
  stats(): { heldDocuments: number; heldDocumentBytes: number; documentAddresses: number } {
    return { heldDocuments: this.documents.size, heldDocumentBytes: this.bytes, documentAddresses: this.addresses.size };
  }
}

/** The refusal of a subscribe whose document would pass `limit`: an error naming the setting, as for every budget of the socket. */
export function documentRefusal(limit: string, limits: DocumentLimits, holder: DocumentHolder): GraphQLError {
  const message =
    limit === 'WS_MAX_DOCUMENT_BYTES'
      ? `The documents of this connection's subscriptions may hold at most ${holder.maxDocumentBytes} bytes; complete one first, or send a shorter document`
      : limit === 'WS_MAX_DOCUMENT_BYTES_PER_ADDRESS'
        ? `The documents of the subscriptions from this address may hold at most ${limits.perAddress} bytes; complete some first, or send shorter or equal documents`
        : `The server holds as many subscription documents as it may (${limits.total} bytes); try again later, or send a document others use`;
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT, limit } });
}
