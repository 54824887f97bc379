import type { Extensions } from './api.js';
import type { Contribution, ExtensionPoint } from './refs.js';

/** Raised at boot when contributions do not fit their points; one line per problem. */
export class ExtensionError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ExtensionError';
  }
}

/**
 * The contributions of the enabled plugins, by extension point. Points are offered by the
 * kernel or by a plugin; a contribution to a point nobody enabled offers is kept aside and
 * never read (its offering plugin is disabled, so its contributions vanish with it).
 */
export class ExtensionRegistry implements Extensions {
  private readonly offered = new Map<string, { by: string; point: ExtensionPoint<unknown> }>();
  private readonly given = new Map<string, Array<{ plugin: string; value: unknown }>>();

  offer(by: string, point: ExtensionPoint<unknown>): void {
    const existing = this.offered.get(point.id);
    if (existing && existing.by !== by)
      throw new ExtensionError([
        `plugin ${by} offers extension point ${point.id}, which ${existing.by} already offers`,
      ]);
    this.offered.set(point.id, { by, point });
  }

  add(plugin: string, contribution: Contribution<unknown>): void {
    const list = this.given.get(contribution.point.id) ?? [];
    list.push({ plugin, value: contribution.value });
    this.given.set(contribution.point.id, list);
  }

  /** After every plugin is set up: a single point with two contributions is a boot error. */
  check(): void {
    const problems: string[] = [];
    for (const [id, { point }] of this.offered) {
      const list = this.given.get(id) ?? [];
      if (point.single && list.length > 1)
        problems.push(
          `extension point ${id} takes one contribution; plugins ${list.map((c) => c.plugin).join(' and ')} each give one`,
        );
    }
    if (problems.length > 0) throw new ExtensionError(problems);
  }

  entries<T>(point: ExtensionPoint<T>): ReadonlyArray<{ plugin: string; value: T }> {
    if (!this.offered.has(point.id)) return [];
    return (this.given.get(point.id) ?? []) as Array<{ plugin: string; value: T }>;
  }

  all<T>(point: ExtensionPoint<T>): readonly T[] {
    return this.entries(point).map((e) => e.value);
  }

  /** The one contribution of a single point, if any. */
  one<T>(point: ExtensionPoint<T>): T | undefined {
    return this.all(point)[0];
  }
}
