/** The service's problems about one input, shown under it; `id` is what the input's aria-describedby names. */
export function ProblemText({ id, problems }: { id: string; problems: readonly string[] | undefined }) {
  if (!problems || problems.length === 0) return null;
  return (
    <span class="error" id={id}>
      {problems.join(' ')}
    </span>
  );
}

/** The props that tie an input to its problems: aria-invalid and aria-describedby. */
export function problemProps(input: string, problems: ReadonlyMap<string, readonly string[]>) {
  return problems.has(input) ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${input}-error` } : {};
}
