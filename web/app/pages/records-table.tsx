// Scaffolding for the page's author to replace.
export function RecordsTablePage() {
  return <h1>Records</h1>;
}
