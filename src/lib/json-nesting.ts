/**
 * How deep the service lets arrays and objects nest in a JSON body or a stored JSON value.
 * Far beyond any real record or event; what it bounds is the recursion of JSON.stringify and
 * of every walk over the value, which a body nested 100,000 deep (a few hundred kilobytes)
 * would otherwise overflow.
 */
export const MAX_JSON_NESTING = 100;

/** The words for a value that nests deeper, after its name. */
export const TOO_DEEP = `nests arrays and objects more than ${MAX_JSON_NESTING} levels deep`;

/** Whether `value` nests arrays and objects more than `limit` levels (a scalar is 0 levels, `[1]` 1), walked without recursion. */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_NESTING): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<readonly [object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [container, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(container) ? container : Object.values(container)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
