/**
 * Typed references a plugin declares and the kernel resolves (Backstage's service refs and
 * extension points): the reference carries the type, so what a plugin receives needs no cast.
 */

/** A kernel service a plugin depends on; `T` is what the plugin receives. */
export interface ServiceRef<T> {
  readonly kind: 'service';
  readonly id: string;
  /** Carries the type only; never set. */
  readonly type?: () => T;
}

export function serviceRef<T>(id: string): ServiceRef<T> {
  return Object.freeze({ kind: 'service', id });
}

/**
 * A place where plugins contribute values of type `T` (authenticators, codecs, component
 * types, job kinds...). Who reads the contributions: the kernel for its own points, the
 * offering plugin for a point it declares. `single`: at most one contribution (an audit sink).
 */
export interface ExtensionPoint<T> {
  readonly kind: 'extension';
  readonly id: string;
  readonly single: boolean;
  readonly type?: () => T;
}

export function extensionPoint<T>(id: string, options: { single?: boolean } = {}): ExtensionPoint<T> {
  return Object.freeze({ kind: 'extension', id, single: options.single === true });
}

/** One value a plugin gives an extension point. */
export interface Contribution<T = unknown> {
  readonly point: ExtensionPoint<T>;
  readonly value: T;
}

export function contribute<T>(point: ExtensionPoint<T>, value: T): Contribution<T> {
  return { point, value };
}

/** The services a dependency map resolves to: `{ db: coreServices.db }` → `{ db: Knex }`. */
export type ServicesOf<D> = { readonly [K in keyof D]: D[K] extends ServiceRef<infer T> ? T : never };
