// Scaffolding for the page's author to replace.
export function RecordPage() {
  return <h1>Record</h1>;
}
