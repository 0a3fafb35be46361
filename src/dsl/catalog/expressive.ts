import type { Expr } from '../expr.js';
import type { ExpressionText } from '../../schema/common.js';

/** A value the platform also takes as a `<+...>` expression: an `expr`, an `input()`, or text holding `<+`. */
export type Expressive<T> = T | Expr | ExpressionText;
