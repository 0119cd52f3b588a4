/**
 * Whether a count is evidence enough for `npm run check -- --repair` to
 * write a counter from it (docs/operations.md, "Checking a table").
 *
 * A counter of an index collection (a GSI1 partition: the inverse side of
 * edges) counts the items whose index keys put them there. An item whose
 * index keys the check flags (wrong, or missing) is counted where its keys
 * put it, or nowhere, not where its template says: every partition it
 * touches is a *suspect* (the one its keys name and the one its template
 * names). The flagged item may come later in the Scan than the counter, so
 * repairs of index counters wait for the end of the Scan and are then
 * decided again (read, counted) and written only outside the suspects.
 * Both lists live in the check's state file (a resumed run keeps them)
 * and are capped at EVIDENCE_CAP entries: past it, every index counter
 * repair is withheld (reported; a second run after the keys are fixed
 * repairs them).
 */
import type { Collection } from '../dynamo/collection.js';

export const EVIDENCE_CAP = 10_000;

/** The state file's part: suspects by label, the deferred index counter repairs, and whether either overflowed. */
export interface EvidenceState {
  suspects: string[];
  deferred: { key: Record<string, unknown>; counter: string }[];
  overflow: boolean;
}

export const emptyEvidence = (): EvidenceState => ({ suspects: [], deferred: [], overflow: false });

const label = (index: string, pk: unknown) => `${index}\u0000${String(pk)}`;

/** The evidence of one run: its state and a set over its suspects. */
export class CounterEvidence {
  private readonly set: Set<string>;

  constructor(readonly state: EvidenceState) {
    this.set = new Set(state.suspects);
  }

  /** The partitions of `index` an item with flagged keys touches (its own key values and its template's). */
  suspect(index: string, ...pks: unknown[]): void {
    for (const pk of pks) {
      if (pk === undefined) continue;
      const l = label(index, pk);
      if (this.set.has(l)) continue;
      if (this.state.suspects.length >= EVIDENCE_CAP) {
        this.state.overflow = true;
        return;
      }
      this.set.add(l);
      this.state.suspects.push(l);
    }
  }

  /** May a count of `collection` repair its counter? Never while an item with flagged keys touches its partition. */
  trusted(collection: Collection): boolean {
    if (collection.index === undefined) return true;
    return !this.state.overflow && !this.set.has(label(collection.index, collection.pk));
  }

  /** Keeps an index counter's repair for the end of the Scan; false when the list is full (withheld). */
  defer(key: Record<string, unknown>, counter: string): boolean {
    if (this.state.deferred.length >= EVIDENCE_CAP) {
      this.state.overflow = true;
      return false;
    }
    this.state.deferred.push({ key, counter });
    return true;
  }
}
