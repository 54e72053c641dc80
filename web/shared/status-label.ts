/** A status as a person reads it: `in_review` → "In review", `funded` → "Funded" (the console and the hosted form). */
export function statusLabel(status: string): string {
  const words = status.replace(/[_-]+/g, ' ').trim();
  if (words === '') return status;
  const spaced = words === words.toUpperCase() ? words.toLowerCase() : words;
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
