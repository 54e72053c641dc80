/**
 * `true` only when A and B are the same type. Written `true satisfies Exact<A, B>;`, it stops
 * the build when two lists that must name the same fields drift apart.
 */
export type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
