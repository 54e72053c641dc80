/**
 * Where a parsed JSON value holds a key that secure-json-parse refuses as prototype poisoning:
 * `__proto__`, or `constructor` holding an object with a `prototype` key. The path reads like
 * `items[2].__proto__`; undefined when there is none. Walked without recursion.
 */
export function prototypeKeyPath(value: unknown): string | undefined {
  const stack: Array<readonly [unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        stack.push([child, `${path}[${index}]`]);
      });
      continue;
    }
    const at = (key: string) => (path === '' ? key : `${path}.${key}`);
    if (Object.hasOwn(node, '__proto__')) return at('__proto__');
    const constructorValue = Object.hasOwn(node, 'constructor') ? (node as { constructor: unknown }).constructor : undefined;
    if (constructorValue !== null && typeof constructorValue === 'object' && Object.hasOwn(constructorValue, 'prototype')) return at('constructor.prototype');
    for (const [key, child] of Object.entries(node)) stack.push([child, at(key)]);
  }
  return undefined;
}
