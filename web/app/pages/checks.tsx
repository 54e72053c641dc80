// Scaffolding for the page's author to replace.
export function ChecksPage() {
  return <h1>Checks</h1>;
}
