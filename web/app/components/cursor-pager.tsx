import './cursor-pager.css';

/**
 * Previous / Next links of a cursor-paged list. The API answers absolute URLs of its own pages
 * (carrying the filters and the cursor); the console passes their query on to its own address.
 */
export function CursorPager({ label, basePath, prevUrl, nextUrl }: { label: string; basePath: string; prevUrl: string | null; nextUrl: string | null }) {
  return (
    <nav class="cursor-pager" aria-label={label}>
      {prevUrl ? (
        <a class="button" href={consoleHref(basePath, prevUrl)} rel="prev">
          ← Previous
        </a>
      ) : (
        <span class="button disabled" aria-disabled="true">
          ← Previous
        </span>
      )}
      {nextUrl ? (
        <a class="button" href={consoleHref(basePath, nextUrl)} rel="next">
          Next →
        </a>
      ) : (
        <span class="button disabled" aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}

/** The console page at basePath with the query of an API link. */
export function consoleHref(basePath: string, apiUrl: string): string {
  const query = new URL(apiUrl, location.origin).searchParams;
  const search = query.toString();
  return search ? `${basePath}?${search}` : basePath;
}
