import type { ComponentChildren } from 'preact';
import './filter-panel.css';

/** A list page's filter form: its fields in a grid, then Apply and Clear. */
export function FilterPanel({ label, onApply, onClear, children }: { label: string; onApply: () => void; onClear: () => void; children: ComponentChildren }) {
  return (
    <form
      class="filter-panel card"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      <div class="filter-panel-grid">{children}</div>
      <div class="row">
        <button class="primary" type="submit">
          Apply filters
        </button>
        <button type="button" onClick={onClear}>
          Clear
        </button>
      </div>
    </form>
  );
}
