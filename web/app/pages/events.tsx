// Scaffolding for the page's author to replace.
export function EventsPage() {
  return <h1>Events</h1>;
}
