// Scaffolding for the page's author to replace.
export function BoardPage() {
  return <h1>Board</h1>;
}
