/**
 * Stream names: `{family}-{id}`. The family (the text before the first `-`) names the bus topic a
 * stream's events are relayed to (processors/topics.ts), so families never contain a `-`; the id may.
 * Every stream name is built and taken apart here, never by slicing a literal prefix at the call site.
 */
export interface StreamFamily<Family extends string = string> {
  readonly family: Family;
  /** `{family}-`: what every stream of the family starts with (subscription filters). */
  readonly prefix: `${Family}-`;
  /** The stream of one entity of the family. */
  stream(id: string): string;
  /** The entity id of a stream of this family, or null for a stream of another family. */
  idOf(streamId: string): string | null;
  owns(streamId: string): boolean;
}

const SEPARATOR = '-';

export function streamFamily<const Family extends string>(family: Family): StreamFamily<Family> {
  if (family.length === 0 || family.includes(SEPARATOR))
    throw new Error(`stream family "${family}" must be non-empty and free of "${SEPARATOR}"`);
  const prefix = `${family}${SEPARATOR}` as const;
  const owns = (streamId: string): boolean => streamId.startsWith(prefix);
  return {
    family,
    prefix,
    stream: (id) => prefix + id,
    idOf: (streamId) => (owns(streamId) ? streamId.slice(prefix.length) : null),
    owns,
  };
}

/** The family of any stream name (the whole name when it has no separator). */
export function familyOf(streamId: string): string {
  const end = streamId.indexOf(SEPARATOR);
  return end === -1 ? streamId : streamId.slice(0, end);
}
