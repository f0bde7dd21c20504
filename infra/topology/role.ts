/**
 * `ROLE`: which components this process runs, as a comma-separated list. `api` folds the read models the
 * routes read; `projections` folds them too and runs the relay (one per deployment: its checkpoint is a
 * compare-and-set); `processors` runs the processors, the pipeline and the renewals, folding only the read
 * models they read unless another component folds them all. `all` (the default) is the three together.
 */
export const COMPONENTS = ['api', 'projections', 'processors'] as const;
export type Component = (typeof COMPONENTS)[number];

const isComponent = (name: string): name is Component => (COMPONENTS as readonly string[]).includes(name);

/** The components a ROLE names, in COMPONENTS order; null when it names something else. */
export function parseRole(role: string): readonly Component[] | null {
  if (role === 'all') return COMPONENTS;
  const names = role.split(',').map((name) => name.trim());
  if (names.length === 0 || !names.every(isComponent)) return null;
  return COMPONENTS.filter((component) => names.includes(component));
}

export const isRole = (role: string): boolean => parseRole(role) !== null;

const componentsOf = (role: string): readonly Component[] => parseRole(role) ?? [];

/** Whether a process with this ROLE runs `component`. */
export const runs = (role: string, component: Component): boolean => componentsOf(role).includes(component);

/** Every component in one process: the only ROLE the embedded adapters (files one process locks) allow. */
export const isAllInOne = (role: string): boolean => componentsOf(role).length === COMPONENTS.length;

/** Whether this process folds every read model (else only what its processors read). */
export const foldsAllReadModels = (role: string): boolean => runs(role, 'api') || runs(role, 'projections');

/**
 * The projection checkpoint of this process: the all-in-one process owns its read store; in a shared
 * MongoDB every folding process resumes from its own (components and instance), writes being position-guarded.
 */
export function projectionCheckpointName(role: string, instance: string): string {
  return isAllInOne(role) ? 'projections' : `projections-${componentsOf(role).join('+')}-${instance}`;
}
