/** Every builder the package exports (hand-written and catalogue), as import looks them up and evaluates them. */
export * from '../dsl/index.js';
export * from '../dsl/catalog/index.js';
