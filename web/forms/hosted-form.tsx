// Scaffolding for the page's author to replace.
export function HostedForm() {
  return <h1>Update a record</h1>;
}
