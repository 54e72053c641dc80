import { invalidBody, type AppError } from '../errors/app-error.js';
import { namesWithMore } from '../errors/item-problems.js';
import { clipped, unstorableTextPlaces } from '../lib/text.js';
import { NdjsonBody } from './ndjson.js';

/** The 400 for a parsed body (or NdjsonBody) holding text the databases cannot store as it is: HTTP and the CLI refuse such text alike. */
export function unstorableTextError(body: unknown): AppError | undefined {
  const places = bodyProblems(body);
  return places.length > 0 ? invalidBody(`text may not hold NUL characters or unpaired surrogates; found at ${namesWithMore(places)}`) : undefined;
}

/** Names every place at fault. */
function bodyProblems(body: unknown): string[] {
  const parts: Array<[unknown, string]> = body instanceof NdjsonBody
    ? body.lines.flatMap((line): Array<[unknown, string]> => ('value' in line ? [[line.value, `line ${line.line} `]] : []))
    : [[body, '']];
  return parts.flatMap(([value, prefix]) =>
    unstorableTextPlaces(value).map(({ path, key }) => {
      const name = clipped(path === '' ? (prefix === '' ? 'the body' : prefix.trimEnd()) : `${prefix}${path}`);
      return key ? `a key in ${name}` : name;
    }),
  );
}
