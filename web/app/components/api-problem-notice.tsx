import type { ApiProblem } from '../../shared/problems';

/** A failed request explained in an error notice that screen readers announce. */
export function ApiProblemNotice({ problem, title }: { problem: ApiProblem; title?: string }) {
  return (
    <div class="notice error" role="alert">
      {title && (
        <p>
          <strong>{title}</strong>
        </p>
      )}
      <p>{problem.message}</p>
    </div>
  );
}
