import { useState } from 'preact/hooks';
import { call } from '../../../shared/api';
import { useConsole } from '../../console-context';
import { signedOutOnUnauthorized, useSessionEnded } from '../../components/session-expiry';
import { stepInputs, type StepTypeForm } from './step-types';

/** Runs any step type without a panel of its own: its inputs as the service's document describes them. */
export function StepPanel({ recordId, types, onRan }: { recordId: string; types: StepTypeForm[]; onRan(): void }) {
  const { client } = useConsole();
  const sessionEnded = useSessionEnded();
  const [type, setType] = useState(types[0]?.type ?? '');
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<{ message: string; details: string }>();
  const form = types.find((candidate) => candidate.type === type) ?? types[0];
  if (!form) return null;

  async function runStep(event: Event) {
    event.preventDefault();
    if (!form) return;
    setError(undefined);
    setResult(undefined);
    setBusy(true);
    const answer = await call(() =>
      client.PUT('/v1/records/{record}/steps', {
        params: { path: { record: recordId } },
        // The client types the inputs of the types it was generated with; this form sends whatever the document offers.
        body: { type: form.type, inputs: stepInputs(form, values) } as never,
      }),
    );
    setBusy(false);
    if (!answer.ok) {
      if (signedOutOnUnauthorized(answer.problem, sessionEnded)) return;
      return setError(`The step did not run: ${answer.problem.message}`);
    }
    setResult({ message: answer.data.message, details: JSON.stringify(answer.data.details, null, 2) });
    onRan();
  }

  const set = (name: string, value: string | boolean) => setValues((current) => ({ ...current, [name]: value }));

  return (
    <section class="card" aria-labelledby="step-heading">
      <h2 id="step-heading">Run a step</h2>
      <form onSubmit={runStep} noValidate>
        <div class="field">
          <label for="step-type">Step</label>
          <select
            id="step-type"
            value={form.type}
            onChange={(event) => {
              setType(event.currentTarget.value);
              setValues({});
            }}
          >
            {types.map((candidate) => (
              <option key={candidate.type} value={candidate.type}>
                {candidate.type}
              </option>
            ))}
          </select>
        </div>
        {form.inputs.map((input) =>
          input.kind === 'boolean' ? (
            <div class="field" key={`${form.type}.${input.name}`}>
              <label>
                <input type="checkbox" checked={values[input.name] === true} onChange={(event) => set(input.name, event.currentTarget.checked)} /> {input.name}
              </label>
            </div>
          ) : (
            <div class="field" key={`${form.type}.${input.name}`}>
              <label for={`step-input-${input.name}`}>
                {input.name}
                {input.required ? '' : ' (optional)'}
              </label>
              {input.description && (
                <span class="hint" id={`step-input-${input.name}-hint`}>
                  {input.description}
                </span>
              )}
              <input
                id={`step-input-${input.name}`}
                type="text"
                inputMode={input.kind === 'text' ? undefined : 'decimal'}
                value={typeof values[input.name] === 'string' ? (values[input.name] as string) : ''}
                aria-describedby={input.description ? `step-input-${input.name}-hint` : undefined}
                onInput={(event) => set(input.name, event.currentTarget.value)}
              />
            </div>
          ),
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Running…' : 'Run step'}
        </button>
      </form>
      <div aria-live="polite">
        {result && (
          <div class="notice success">
            <p>{result.message}</p>
            <pre class="mono">{result.details}</pre>
          </div>
        )}
      </div>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
