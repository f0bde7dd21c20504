import type { z } from 'zod';
import type { RecordedEvent } from '../ports/event-store.port.js';
import type { StreamFamily } from './streams.js';

/**
 * The machinery of an event registry: every event type's zod schema, the stream families it is
 * appended to, and the version of its shape. An event is written with its type's current
 * `schemaVersion`; reading an older one runs it through the type's upcasters, one version at a time,
 * before the schema validates it, so every reader sees the current shape only.
 */
export type SchemaMap = Readonly<Record<string, z.ZodType>>;

/** Event types whose data are appended to the streams of the given families. */
export interface EventGroup<Schemas extends SchemaMap = SchemaMap> {
  readonly streams: readonly StreamFamily[];
  readonly schemas: Schemas;
}

/** Turns one version's data into the next version's shape. Pure: no clock, no I/O. */
export type Upcaster = (data: unknown) => unknown;

/** How a type's shape changed: `current` is written with new events, `upcasters[v]` reads version v as v + 1. */
export interface EventVersioning {
  readonly current: number;
  readonly upcasters: Readonly<Record<number, Upcaster>>;
}

/**
 * A type no longer written, read as a current one: its last schema, and the pure function that turns its
 * (validated) data into an event of a registered type. E.g. a renamed event, or one split in two.
 */
export interface RetiredEvent {
  /** The registered type its events are read as (the projections that handle it get them). */
  readonly becomes: string;
  readonly schema: z.ZodType;
  readonly upcast: (data: never) => { readonly type: string; readonly data: unknown };
}

/** How the shapes of a registry's events changed over time. */
export interface EventHistory<Type extends string> {
  readonly versions?: Partial<Record<Type, EventVersioning>>;
  readonly retired?: Readonly<Record<string, RetiredEvent>>;
}

/** Versions written before the registry read them: every event so far carries schemaVersion 1. */
export const FIRST_SCHEMA_VERSION = 1;

/** A recorded event of one registered type, its data in the current shape. */
export type TypedEvent<Schemas extends SchemaMap, Type extends keyof Schemas & string = keyof Schemas & string> = {
  [K in Type]: RecordedEvent<K, z.output<Schemas[K]>>;
}[Type];

/** What the registry needs of an event to read it: a recorded event or a bus message. */
export interface StoredEvent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata?: { readonly schemaVersion?: unknown };
}

export interface EventRegistry<Schemas extends SchemaMap> {
  readonly types: readonly (keyof Schemas & string)[];
  /** Every stream family some registered type is appended to. */
  readonly families: readonly string[];
  /** The stream families events of `type` are appended to (its successor's, for a retired type); none when unknown. */
  familiesOf(type: string): readonly string[];
  isRegistered(type: string): type is keyof Schemas & string;
  /** The registered type an event of `type` is read as (itself, or what a retired type became); null when unknown. */
  readAs(type: string): (keyof Schemas & string) | null;
  /** The schemaVersion to write with a new event of `type` (the first version for an unregistered type). */
  versionOf(type: string): number;
  /** The event with its data brought to the current version (unchanged when current or unregistered). */
  upcast<E extends StoredEvent>(event: E): E;
  /** Upcast (a retired type becomes its successor) and validated; null for an unknown type; throws (ZodError) when the data do not fit the schema. */
  parse(event: RecordedEvent): TypedEvent<Schemas> | null;
  /**
   * Upcast but not validated, for the hot paths that fold every event (projections): what the service
   * writes is its deciders' output, typed by these very schemas, and every command validates its stream
   * on load. Null for an unknown type.
   */
  read(event: RecordedEvent): TypedEvent<Schemas> | null;
  /** The data of a stored event known to be of `type` (a processor's bus message), upcast and validated. */
  dataOf<Type extends keyof Schemas & string>(type: Type, event: StoredEvent): z.output<Schemas[Type]>;
}

export type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The one schema map of a list of groups (each type in one group only). */
export type SchemasOf<Groups extends readonly EventGroup[]> = Flatten<UnionToIntersection<Groups[number]['schemas']>>;
type Flatten<T> = { readonly [K in keyof T & string]: T[K] extends z.ZodType ? T[K] : never };

const versionIn = (event: StoredEvent): number => {
  const version = event.metadata?.schemaVersion;
  return typeof version === 'number' && Number.isInteger(version) ? version : FIRST_SCHEMA_VERSION;
};

export function defineEventRegistry<const Groups extends readonly EventGroup[]>(
  groups: Groups,
  history: EventHistory<keyof SchemasOf<Groups> & string> = {},
): EventRegistry<SchemasOf<Groups>> {
  type Schemas = SchemasOf<Groups>;
  type Type = keyof Schemas & string;
  const schemas = new Map<string, z.ZodType>();
  const families = new Set<string>();
  const familiesByType = new Map<string, readonly string[]>();
  for (const group of groups) {
    for (const streams of group.streams) families.add(streams.family);
    for (const [type, schema] of Object.entries(group.schemas)) {
      if (schemas.has(type)) throw new Error(`event type ${type} is registered twice`);
      schemas.set(type, schema);
      familiesByType.set(
        type,
        group.streams.map((streams) => streams.family),
      );
    }
  }
  const versioning = new Map<string, EventVersioning>();
  for (const [type, entry] of Object.entries(history.versions ?? {}) as [string, EventVersioning | undefined][]) {
    if (!entry) continue;
    if (!schemas.has(type)) throw new Error(`versions given for unregistered event type ${type}`);
    for (let version = FIRST_SCHEMA_VERSION; version < entry.current; version++) {
      if (!entry.upcasters[version]) throw new Error(`event type ${type} has no upcaster from version ${version} to ${version + 1}`);
    }
    versioning.set(type, entry);
  }
  const retired = new Map(Object.entries(history.retired ?? {}));
  for (const [type, old] of retired) {
    if (schemas.has(type)) throw new Error(`event type ${type} is both registered and retired`);
    if (!schemas.has(old.becomes)) throw new Error(`retired event type ${type} becomes unregistered ${old.becomes}`);
  }
  // One parse per recorded event, however many projections fold it.
  const parsed = new WeakMap<RecordedEvent, TypedEvent<Schemas>>();

  const isRegistered = (type: string): type is Type => schemas.has(type);

  function upcastData(type: string, event: StoredEvent): unknown {
    const entry = versioning.get(type);
    let data = event.data;
    if (!entry) return data;
    for (let version = versionIn(event); version < entry.current; version++) {
      const upcaster = entry.upcasters[version];
      if (upcaster) data = upcaster(data);
    }
    return data;
  }

  /** A retired type's event as its successor (the successor's current version), else the event itself. */
  function successor<E extends StoredEvent>(event: E): E {
    const old = retired.get(event.type);
    if (!old) return event;
    const next = old.upcast(old.schema.parse(event.data) as never);
    if (next.type !== old.becomes) throw new Error(`retired ${event.type} was upcast to ${next.type}, not ${old.becomes}`);
    return { ...event, type: next.type, data: next.data, metadata: { ...event.metadata, schemaVersion: versionOf(next.type) } } as E;
  }

  const versionOf = (type: string): number => versioning.get(type)?.current ?? FIRST_SCHEMA_VERSION;

  function validated(type: string, event: StoredEvent): unknown {
    const schema = schemas.get(type);
    if (!schema) throw new Error(`event type ${type} is not registered`);
    return schema.parse(upcastData(type, event));
  }

  function upcast<E extends StoredEvent>(stored: E): E {
    const event = successor(stored);
    const current = versioning.get(event.type)?.current ?? FIRST_SCHEMA_VERSION;
    return versionIn(event) < current ? ({ ...event, data: upcastData(event.type, event) } as E) : event;
  }

  return {
    types: [...schemas.keys()] as Type[],
    families: [...families],
    familiesOf: (type) => familiesByType.get(retired.get(type)?.becomes ?? type) ?? [],
    isRegistered,
    readAs(type) {
      if (isRegistered(type)) return type;
      const becomes = retired.get(type)?.becomes;
      return becomes !== undefined && isRegistered(becomes) ? becomes : null;
    },
    versionOf,
    upcast,
    parse(stored) {
      if (!isRegistered(stored.type) && !retired.has(stored.type)) return null;
      const known = parsed.get(stored);
      if (known) return known;
      const event = successor(stored);
      // The registry is the one place that pairs a type with its data's shape: the schema just checked it.
      const typed = { ...event, data: validated(event.type, event) } as TypedEvent<Schemas>;
      parsed.set(stored, typed);
      return typed;
    },
    read(stored) {
      if (!isRegistered(stored.type) && !retired.has(stored.type)) return null;
      // Trusted: see the interface. The type-to-shape pairing is the registry's own, kept in this one place.
      return upcast(stored) as TypedEvent<Schemas>;
    },
    dataOf(type, stored) {
      const event = successor(stored);
      if (event.type !== type) throw new Error(`expected a ${type} event, got ${event.type}`);
      return validated(type, event) as z.output<Schemas[typeof type]>;
    },
  };
}
