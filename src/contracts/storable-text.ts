import { invalidBody, type AppError } from '../errors/app-error.js';
import { namesWithMore } from '../errors/item-problems.js';
import { clipped, isStorableText } from '../lib/text.js';
import { NdjsonBody } from './ndjson.js';

/** The 400 for a parsed body (or NdjsonBody) holding text the databases cannot store as it is: HTTP and the CLI refuse such text alike. */
export function unstorableTextError(body: unknown): AppError | undefined {
  const places = bodyProblems(body);
  return places.length > 0 ? invalidBody(`text may not hold NUL characters or unpaired surrogates; found at ${namesWithMore(places)}`) : undefined;
}

/** Walks a parsed body without recursion (bodies may nest deeply); names every place at fault. */
function bodyProblems(body: unknown): string[] {
  const stack: Array<[unknown, string]> =
    body instanceof NdjsonBody
      ? body.lines.flatMap((line): Array<[unknown, string]> => ('value' in line ? [[line.value, `line ${line.line}:`]] : [])).reverse()
      : [[body, '']];
  const places: string[] = [];
  const name = (place: string) => (place === '' ? 'the body' : place.replace(/^(line \d+):\.?/, '$1 '));
  while (stack.length > 0) {
    const [value, place] = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) places.push(clipped(name(place)));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${place}[${i}]`]);
    } else if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const at = place === '' ? key : `${place}.${key}`;
        if (!isStorableText(key)) places.push(`a key in ${clipped(name(place))}`);
        stack.push([item, at]);
      }
    }
  }
  return places;
}
