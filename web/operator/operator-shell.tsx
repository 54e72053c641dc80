import { useMemo, useState } from 'preact/hooks';
import { apiClient } from '../shared/api';
import { OperatorContext, type Operator } from './operator-context';
import { clearOperatorSession, loadCompany, loadOperatorToken, saveCompany } from './operator-session';
import { OperatorSignIn } from './operator-sign-in';
import { RecordTypesScreen } from './record-types-screen';
import { TemplatesScreen } from './templates-screen';

type Screen = 'types' | 'templates';

/** The operator page: sign-in with the operator token, then a company's record types and PDF templates. */
export function OperatorShell() {
  const [token, setToken] = useState(loadOperatorToken);
  const [company, setCompany] = useState(loadCompany);
  const [reason, setReason] = useState<string>();
  const [screen, setScreen] = useState<Screen>('types');
  const operator = useMemo<Operator | undefined>(
    () =>
      token && company
        ? {
            client: apiClient(token),
            company,
            signOut(why) {
              clearOperatorSession();
              setReason(why);
              setToken(undefined);
            },
          }
        : undefined,
    [token, company],
  );

  if (!operator) {
    return (
      <OperatorSignIn
        reason={reason}
        onSignedIn={(nextToken, nextCompany) => {
          setReason(undefined);
          setCompany(nextCompany);
          setToken(nextToken);
        }}
      />
    );
  }
  return (
    <OperatorContext.Provider value={operator}>
      <header class="shell-header">
        <span class="brand">wrs operator</span>
        <nav aria-label="Operator">
          <ul>
            {(
              [
                ['types', 'Record types'],
                ['templates', 'PDF templates'],
              ] as const
            ).map(([id, label]) => (
              <li key={id}>
                <button type="button" class="tab" aria-current={screen === id ? 'page' : undefined} onClick={() => setScreen(id)}>
                  {label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <CompanySwitch
          company={operator.company}
          onSwitch={(next) => {
            saveCompany(next);
            setCompany(next);
          }}
        />
        <div class="who">
          <button type="button" onClick={() => operator.signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main class="page" id="main">
        {screen === 'types' ? <RecordTypesScreen key={operator.company} /> : <TemplatesScreen key={operator.company} />}
      </main>
    </OperatorContext.Provider>
  );
}

function CompanySwitch({ company, onSwitch }: { company: string; onSwitch: (company: string) => void }) {
  const [value, setValue] = useState(company);
  return (
    <form
      class="row company-switch"
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim() !== '') onSwitch(value.trim());
      }}
    >
      <label for="company-switch">Company</label>
      <input id="company-switch" value={value} autocomplete="off" onInput={(event) => setValue(event.currentTarget.value)} />
      <button type="submit" disabled={value.trim() === '' || value.trim() === company}>
        Open
      </button>
    </form>
  );
}
