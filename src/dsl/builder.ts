import type { SourceSite } from '../core/source-site.js';

/**
 * Base of every builder: frozen props, and methods that return a new builder of the same class.
 * A stage or step defined once can be reused anywhere without one use changing another.
 */
export abstract class Builder<Props extends object> {
  protected readonly props: Readonly<Props>;
  /** Where the user's code created this builder. */
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

  /** Applies `then` only when `condition` holds, keeping the chain unbroken. */
  $if<R>(condition: boolean, then: (builder: this) => R): this | R {
    return condition ? then(this) : this;
  }

  /** Passes this builder through a function: `.$call(withSmokeTests)`. */
  $call<R>(fn: (builder: this) => R): R {
    return fn(this);
  }
}
