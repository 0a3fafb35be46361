import type { SourceSite } from '../core/source-site.js';

/**
 * What every builder the user holds offers besides its own methods: where it was made, and two helpers that keep
 * a chain unbroken. The public builder types are interfaces extending this one; the classes behind them stay
 * inside the package (kysely's pattern), so a builder shows only the methods that make sense for its kind.
 */
export interface Chainable {
  /** Where the user's code created this builder. */
  readonly site: SourceSite;
  /** Applies `then` only when `condition` holds, keeping the chain unbroken. */
  $if<R>(condition: boolean, then: (builder: this) => R): this | R;
  /** Passes this builder through a function: `.$call(withSmokeTests)`. */
  $call<R>(fn: (builder: this) => R): R;
}

/**
 * Base of the builder classes: frozen props, and methods that return a new builder of the same class.
 * A stage or step defined once can be reused anywhere without one use changing another.
 */
export abstract class Builder<Props extends object> implements Chainable {
  protected readonly props: Readonly<Props>;
  readonly site: SourceSite;

  constructor(props: Props, site: SourceSite) {
    this.props = Object.freeze({ ...props });
    this.site = site;
    Object.freeze(this);
  }

  /** A copy of this builder with some props replaced. */
  protected with(patch: Partial<Props>): this {
    const Ctor = this.constructor as new (props: Props, site: SourceSite) => this;
    return new Ctor({ ...this.props, ...patch }, this.site);
  }

  $if<R>(condition: boolean, then: (builder: this) => R): this | R {
    return condition ? then(this) : this;
  }

  $call<R>(fn: (builder: this) => R): R {
    return fn(this);
  }
}
