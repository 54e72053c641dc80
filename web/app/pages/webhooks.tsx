// Scaffolding for the page's author to replace.
export function WebhooksPage() {
  return <h1>Webhooks</h1>;
}
