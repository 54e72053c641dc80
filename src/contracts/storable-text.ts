import { invalidBody, type AppError } from '../errors/app-error.js';
import { namesWithMore } from '../errors/item-problems.js';
import { clipped, unstorableTextPlaces } from '../lib/text.js';

/** The 400 for a parsed body holding text the databases cannot store as it is: HTTP and the CLI refuse such text alike. */
export function unstorableTextError(body: unknown): AppError | undefined {
  const places = unstorableTextPlaces(body).map(({ path, key }) => {
    const name = clipped(path === '' ? 'the body' : path);
    return key ? `a key in ${name}` : name;
  });
  return places.length > 0 ? invalidBody(`text may not hold NUL characters or unpaired surrogates; found at ${namesWithMore(places)}`) : undefined;
}
