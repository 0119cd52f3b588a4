/**
 * What goes through a shared carrier (Redis) is what subscribers may see:
 * every image loses the attributes of fields whose rule depends on who
 * reads them (an owner's or an administrator's field, such as a student's
 * email or a customer's orders), and the event says its image is partial.
 * That holds for an object's own topic and for a connection's: a child
 * loses its type's guarded fields, an edge the copies of guarded fields,
 * an item the counters of guarded connections. A subscriber allowed such
 * a field reads it from the table through the execution's loaders, like
 * any field an image does not hold (resolvers.ts), so what it receives is
 * unchanged; Redis never holds it. Keys stay (they name the item, its
 * topics and its cursors), and so do fields open to anyone or to every
 * signed-in caller: everyone who may subscribe may read them.
 */
import { ANYONE, SIGNED_IN, type Rules } from '../auth/rules.js';
import { compileRules } from '../auth/compileRules.js';
import type { Model } from '../declaration/model.js';
import { PROPAGATING_ATTRS } from '../plan/itemPlan.js';
import type { ChangeEvent } from './events.js';

export type Redaction = (event: ChangeEvent) => ChangeEvent;

type ModelTypes = Pick<Model, 'items' | 'relations'>;

/** The attributes a carried image of each item type leaves out, from the model and its compiled rules. */
export function guardedAttributes(model: ModelTypes, rules: Pick<Rules, 'ruleFor'>): Map<string, string[]> {
  const guarded = new Map<string, string[]>();
  const open = (type: string, field: string) => {
    const rule = rules.ruleFor(type, field);
    return rule === null || rule === ANYONE || rule === SIGNED_IN;
  };
  for (const type of model.items.values()) {
    const fields = type.attributes.map((a) => a.name).filter((f) => !open(type.name, f));
    // A @propagating flag is read from the marks a rename or delete leaves.
    const marks = type.flags.some((f) => !open(type.name, f)) ? PROPAGATING_ATTRS : [];
    const counters = type.relations.filter((r) => r.counter !== null && !open(type.name, r.field)).map((r) => r.counter!);
    const left = [...fields, ...marks, ...counters];
    if (left.length > 0) guarded.set(type.name, left);
  }
  return guarded;
}

/** What an image on each topic kind leaves out: by item type for own topics, by `Type.field` for connections. */
function guardedByTopic(model: ModelTypes, rules: Pick<Rules, 'ruleFor'>): Map<string, string[]> {
  const byType = guardedAttributes(model, rules);
  const out = new Map(byType);
  for (const [path, relation] of model.relations) {
    const node = byType.get(relation.node) ?? [];
    // A child is the node's own item; an edge holds copies of the node's fields (its own attributes are the connection's).
    const left = relation.kind === 'children' ? node : relation.copies.filter((c) => node.includes(c.field)).map((c) => c.attribute);
    if (left.length > 0) out.set(path, left);
  }
  return out;
}

/** The redaction of a model's images, under its compiled rules (those of the model when not given). */
export function imageRedaction(model: Model, rules: Pick<Rules, 'ruleFor'> = compileRules(model)): Redaction {
  const guarded = guardedByTopic(model, rules);
  return (event) => {
    if (!event.image) return event;
    // `Type#id` (an object) or `Type.field#parent` (a connection): both name their entry before the `#`.
    const attributes = guarded.get(event.topic.slice(0, event.topic.indexOf('#')))?.filter((a) => a in event.image!);
    if (!attributes?.length) return event;
    const image = { ...event.image };
    for (const a of attributes) delete image[a];
    return { ...event, image, partial: true };
  };
}
