import { statusLabel } from '../../shared/status-label';
import './status-badge.css';

export function StatusBadge({ status }: { status: string }) {
  return (
    <span class="status-badge" title={status}>
      {statusLabel(status)}
    </span>
  );
}
