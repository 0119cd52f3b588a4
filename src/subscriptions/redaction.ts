/**
 * What goes through a shared carrier (Redis) is what subscribers may see:
 * an item's new image loses the attributes of fields whose own rule
 * depends on who reads them (an owner's or an administrator's field, such
 * as a student's email), and the event says its image is partial. A
 * subscriber allowed such a field reads it from the table through the
 * execution's loaders, like any field an image does not hold
 * (resolvers.ts), so what it receives is unchanged; Redis never holds it.
 * Fields open to anyone or to every signed-in caller travel as they are:
 * everyone who may subscribe may read them.
 */
import { ANYONE, SIGNED_IN, type Rules } from '../auth/rules.js';
import type { ChangeEvent } from './events.js';
import { storedName, type Model } from '../declaration/model.js';

export type Redaction = (event: ChangeEvent) => ChangeEvent;

/** The attributes kept out of carried images, by item type, from the compiled rules: each field's stored name (@attribute(name:)). */
export function guardedAttributes(rules: Pick<Rules, 'ruleFor' | 'fields'>, model: Pick<Model, 'items'>): Map<string, string[]> {
  const guarded = new Map<string, string[]>();
  for (const qualified of rules.fields) {
    const [type, field] = qualified.split('.') as [string, string];
    // The id names the item and its topics: never held back.
    if (field === 'id') continue;
    const rule = rules.ruleFor(type, field);
    if (!rule || rule === ANYONE || rule === SIGNED_IN) continue;
    const item = model.items.get(type);
    guarded.set(type, [...(guarded.get(type) ?? []), item ? storedName(item, field) : field]);
  }
  return guarded;
}

export function imageRedaction(rules: Pick<Rules, 'ruleFor' | 'fields'>, model: Pick<Model, 'items'>): Redaction {
  const guarded = guardedAttributes(rules, model);
  return (event) => {
    if (!event.image) return event;
    // An object's own topic (`Type#id`); a connection's images are its edges and children.
    const hash = event.topic.indexOf('#');
    const type = event.topic.slice(0, hash);
    if (type.includes('.')) return event;
    const attributes = guarded.get(type)?.filter((a) => a in event.image!);
    if (!attributes?.length) return event;
    const image = { ...event.image };
    for (const a of attributes) delete image[a];
    return { ...event, image, partial: true };
  };
}
